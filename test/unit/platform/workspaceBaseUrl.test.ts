// Which base URLs from workspace settings must wait for the user's allowance before the key is sent there.
import * as assert from 'assert';
import { allowanceId, workspaceBaseUrlToAllow } from '../../../src/platform/workspaceBaseUrl';

describe('workspace base URL allowance', () => {
  it('asks for a workspace value that differs from the user value, normalised', () => {
    assert.strictEqual(
      workspaceBaseUrlToAllow({ user: 'https://gw.example.com', workspace: 'https://evil.example/v1' }),
      'https://evil.example',
    );
    assert.strictEqual(workspaceBaseUrlToAllow({ workspace: 'http://127.0.0.1:9/v1/messages' }), 'http://127.0.0.1:9');
    assert.strictEqual(
      workspaceBaseUrlToAllow({ user: 'https://gw.example.com', workspace: 'https://gw.example.com.evil.example' }),
      'https://gw.example.com.evil.example',
    );
    assert.strictEqual(
      workspaceBaseUrlToAllow({ user: 'https://gw.example.com', workspace: 'https://gw.example.com/proxy' }),
      'https://gw.example.com/proxy',
    );
  });

  it('does not ask when the workspace repeats the user value in another spelling, sets none, or sets an unusable one', () => {
    assert.strictEqual(
      workspaceBaseUrlToAllow({ user: 'https://gw.example.com', workspace: 'https://gw.example.com/v1/' }),
      undefined,
    );
    assert.strictEqual(workspaceBaseUrlToAllow({ user: 'https://gw.example.com' }), undefined);
    assert.strictEqual(workspaceBaseUrlToAllow({ user: 'https://gw.example.com', workspace: 'ftp://x' }), undefined);
    assert.strictEqual(workspaceBaseUrlToAllow({ user: 'https://gw.example.com', workspace: '' }), undefined);
    assert.strictEqual(workspaceBaseUrlToAllow({ user: 'https://gw.example.com', workspace: 42 }), undefined);
  });

  it('remembers an allowance per workspace and URL, as a hash that names neither', () => {
    const id = allowanceId('file:///ws', 'https://evil.example');
    assert.match(id, /^[0-9a-f]{64}$/);
    assert.notStrictEqual(id, allowanceId('file:///other', 'https://evil.example'));
    assert.notStrictEqual(id, allowanceId('file:///ws', 'https://evil2.example'));
    assert.ok(!id.includes('evil'));
  });
});
