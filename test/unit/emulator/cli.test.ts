// The CLI: prints the URL and the demo key, serves, stops cleanly on SIGTERM and SIGINT.

import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

function startCli(args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/emulator/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve({ child, url: m[1], output: () => out });
      }
    }, 20);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`cli exited ${code}: ${out}`));
    });
  });
}

const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise((r) => child.once('exit', (code) => r(code)));

describe('emulator: CLI', function () {
  this.timeout(20_000);

  it('--config emulator.json --port 0: prints URL and demo key, serves, logs requests, exits 0 on SIGTERM', async () => {
    const { child, url, output } = await startCli([
      '--port',
      '0',
      '--config',
      'emulator.json',
      '--admin-token',
      'cli-token',
    ]);
    try {
      assert.match(output(), /Demo key: mg-demo-key-0001/);
      const res = await fetch(`${url}/v1/models`, { headers: { authorization: 'Bearer mg-demo-key-0001' } });
      assert.equal(res.status, 200);
      assert.equal(
        (await fetch(`${url}/admin/counters`, { headers: { authorization: 'Bearer cli-token' } })).status,
        200,
      );
      const done = exited(child);
      child.kill('SIGTERM');
      assert.equal(await done, 0);
      assert.match(output(), /GET \/v1\/models 200/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('stops on SIGINT; a bad argument exits non-zero with a message', async () => {
    const { child } = await startCli(['--port', '0', '--quiet']);
    const done = exited(child);
    child.kill('SIGINT');
    assert.equal(await done, 0);
    await assert.rejects(startCli(['--bogus']), /unknown argument --bogus/);
  });
});
