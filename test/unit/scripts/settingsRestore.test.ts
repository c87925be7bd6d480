// How a UI suite puts back the user settings it changed (test/support/chatView.ts chatViewSuite): a setting set back
// to its default is unchanged; any other change (ours or another extension's, any type, a file that is not JSON) puts
// the whole file back through its editor in the window.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { settingsChanged, settingValue } from '../../support/chatView';

describe('UI suites: putting back the user settings they changed', () => {
  const base = JSON.stringify({ 'modelGateway.baseUrl': 'http://127.0.0.1:1' });
  const withValues = (values: Record<string, unknown>) =>
    JSON.stringify({ 'modelGateway.baseUrl': 'http://127.0.0.1:1', ...values });

  it('a setting set back to its default (package.json) is no change; the same text is none either', () => {
    assert.deepEqual(settingsChanged(base, base), []);
    assert.deepEqual(settingsChanged(base, withValues({ 'modelGateway.agent.autoApproveWrites': false })), []);
    assert.deepEqual(settingsChanged(base, withValues({ 'modelGateway.agent.maxSteps': 25 })), []);
  });

  it('a setting still changed is named with the value it had before', () => {
    assert.deepEqual(settingsChanged(base, withValues({ 'modelGateway.agent.maxSteps': 3 })), [
      { id: 'modelGateway.agent.maxSteps', before: 25 },
    ]);
    assert.deepEqual(
      settingsChanged(
        withValues({ 'modelGateway.agent.autoApproveWrites': true }),
        withValues({ 'modelGateway.agent.autoApproveWrites': false }),
      ),
      [{ id: 'modelGateway.agent.autoApproveWrites', before: true }],
    );
  });

  it("a string, another extension's setting, an array and a file that is not JSON are changes too", () => {
    assert.deepEqual(settingsChanged(base, withValues({ 'modelGateway.baseUrl': 'http://x' })), [
      { id: 'modelGateway.baseUrl', before: 'http://127.0.0.1:1' },
    ]);
    assert.deepEqual(settingsChanged(base, withValues({ 'editor.tabSize': 8 })), [
      { id: 'editor.tabSize', before: undefined },
    ]);
    assert.deepEqual(
      settingsChanged(base, withValues({ 'modelGateway.agent.commandAllowList': ['echo x'] })).map((c) => c.id),
      ['modelGateway.agent.commandAllowList'],
    );
    assert.deepEqual(settingsChanged(base, `// comment\n${base}`), [{ id: 'settings.json', before: undefined }]);
  });

  it('a key the Settings editor removed reads as its default, so putting back a default value is seen as done', () => {
    assert.equal(settingValue(base, 'modelGateway.agent.maxSteps'), 25);
    assert.equal(settingValue(base, 'modelGateway.agent.autoApproveWrites'), false);
    assert.equal(settingValue(withValues({ 'modelGateway.agent.maxSteps': 3 }), 'modelGateway.agent.maxSteps'), 3);
    assert.equal(settingValue('{ not json', 'modelGateway.agent.maxSteps'), undefined);
  });

  it('the harness profile has no setting VS Code 1.139 migrates on start (extensions.autoUpdate: false became "off")', async () => {
    const { BASE_SETTINGS } = (await import(
      path.join(__dirname, '..', '..', '..', 'scripts', 'lib', 'codeServer.mjs')
    )) as {
      BASE_SETTINGS: Record<string, unknown>;
    };
    // A migrated value rewrites settings.json under the UI suites: they took it for a change of their own that the
    // Settings editor cannot put back, and reloaded the shared window after every suite.
    assert.ok(!('extensions.autoUpdate' in BASE_SETTINGS));
  });
});
