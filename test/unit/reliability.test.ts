// Reliability (issue 10) cases that need a whole process or the system resolver: the gateway process killed
// mid-stream (SIGKILL: no goodbye), and a base URL whose host does not resolve. Both must end in a typed
// GatewayError with the partial answer kept and the key nowhere in the error.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createGatewayClient } from '../../src/gateway';
import { failure } from '../support/failure';

const KEY = 'mg-demo-key-0001';

/** Starts the emulator CLI in its own process and resolves with its URL. */
function startEmulatorProcess(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'emulator', 'cli.ts'), '--port', '0', '--quiet'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
}

describe('reliability: process death and name resolution', function () {
  this.timeout(60_000);

  it('the gateway process killed mid-stream: network error, outcome unknown, partial text kept', async () => {
    const { child, url } = await startEmulatorProcess();
    try {
      const client = createGatewayClient({ baseUrl: url, apiKey: KEY });
      const stream = client.streamMessage({
        model: 'claude-demo-haiku',
        max_tokens: 2000,
        messages: [{ role: 'user', content: 'a long answer [[tokens=1000]]' }],
      });
      let text = 0;
      const consumed = (async () => {
        for await (const event of stream) {
          if (event.type === 'content_block_delta' && ++text === 5) child.kill('SIGKILL');
        }
      })();
      const err = await failure(consumed);
      assert.equal(err.kind, 'network');
      assert.equal(err.outcomeUnknown, true);
      const partial = err.partial?.content.find((b) => b.type === 'text');
      assert.ok(partial && 'text' in partial && String(partial.text).length > 0, 'the partial answer is kept');
      assert.ok(!err.message.includes(KEY));
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a host that does not resolve: a typed network (or timeout) error, never a crash, no key in it', async () => {
    const client = createGatewayClient({
      baseUrl: 'http://gateway.invalid',
      apiKey: KEY,
      timeoutMs: 8000,
      maxRetries: 0,
    });
    const err = await failure(client.listModels());
    assert.ok(err.kind === 'network' || err.kind === 'timeout', err.kind);
    assert.equal(err.route, 'GET /v1/models');
    assert.ok(!err.message.includes(KEY) && !JSON.stringify(err.supportRecord()).includes(KEY));
  });
});
