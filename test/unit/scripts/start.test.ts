// `npm start`'s choices (scripts/lib/startOptions.mjs) and the progress of a first start's provisioning
// (scripts/lib/installProgress.mjs), from lines as npm, install scripts, node-gyp and make print them.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIALECT_NAMES } from '../../../src/emulator/dialects';

const root = path.resolve(__dirname, '..', '..', '..');
interface StartOptions {
  HELP: string;
  OFFLINE_ENV: Record<string, string>;
  DEMO_KEY_NAME: string;
  parseStartArgs(
    argv: string[],
    o: { versions: string[]; env?: Record<string, string> },
  ): { vscode: string; lang: string; dialect?: string };
  EMULATOR_DIALECTS: string[];
  dialectBanner(url: string, adminToken: string, dialect?: string): string[];
  nodeSupported(version: string, minimum: string): boolean;
  assertNodeVersion(pkg: unknown, version?: string): void;
}
interface InstallProgress {
  summarizeInstallLine(line: string): { phase: string; detail?: string } | undefined;
  installProgress(
    what: string,
    o: {
      log: (line: string) => void;
      now: () => number;
      timers: { setInterval(fn: () => void, ms: number): unknown; clearInterval(t: unknown): void };
      expected?: string;
    },
  ): { line(text: string): void; stop(): void };
}
const load = async () => ({
  start: (await import(path.join(root, 'scripts', 'lib', 'startOptions.mjs'))) as StartOptions,
  progress: (await import(path.join(root, 'scripts', 'lib', 'installProgress.mjs'))) as InstallProgress,
});
const versions = Object.keys(
  JSON.parse(fs.readFileSync(path.join(root, 'scripts', 'vscode-versions.json'), 'utf8')) as Record<string, unknown>,
);

describe('npm start: options, offline environment, first-start progress', () => {
  it('runs the newest known VS Code (the one with the chat APIs) unless --vscode or MG_VSCODE names another', async () => {
    const { start } = await load();
    assert.deepEqual(versions, ['1.100.3', '1.139.1']);
    assert.equal(start.parseStartArgs([], { versions }).vscode, '1.139.1');
    assert.equal(start.parseStartArgs(['--vscode', '1.100.3'], { versions }).vscode, '1.100.3');
    assert.equal(start.parseStartArgs([], { versions, env: { MG_VSCODE: '1.100.3' } }).vscode, '1.100.3');
    assert.throws(() => start.parseStartArgs(['--vscode', '1.2.3'], { versions }), /known: 1\.100\.3, 1\.139\.1/);
  });

  it('--lang zh-cn opens the UI in Chinese; other languages are refused with the list', async () => {
    const { start } = await load();
    assert.equal(start.parseStartArgs([], { versions }).lang, 'en');
    assert.equal(start.parseStartArgs(['--lang', 'zh-CN'], { versions }).lang, 'zh-cn');
    assert.throws(() => start.parseStartArgs(['--lang', 'fr'], { versions }), /known: en, zh-cn/);
    assert.match(start.HELP, /--lang/);
  });

  it('--dialect picks the gateway the emulator behaves like; the banner prints the admin route to switch it', async () => {
    const { start } = await load();
    assert.deepEqual(start.EMULATOR_DIALECTS, [...DIALECT_NAMES], 'the same names as the emulator');
    assert.equal(start.parseStartArgs(['--dialect', 'one-api'], { versions }).dialect, 'one-api');
    assert.equal(start.parseStartArgs([], { versions }).dialect, undefined);
    assert.throws(() => start.parseStartArgs(['--dialect', 'x'], { versions }), /known: default, new-api, one-api/);
    assert.match(start.HELP, /--dialect D .*one-api/);
    const banner = start.dialectBanner('http://127.0.0.1:8787', 'emulator-admin', 'one-api').join('\n');
    assert.match(banner, /dialect +one-api/);
    assert.match(banner, /POST http:\/\/127\.0\.0\.1:8787\/admin\/dialect -H 'Authorization: Bearer emulator-admin'/);
    assert.match(banner, /Forget Learned Dialects/);
  });

  it('the first start says what its time range was measured on', () => {
    const spec = JSON.parse(fs.readFileSync(path.join(root, 'scripts', 'vscode-versions.json'), 'utf8')) as Record<
      string,
      { expected?: string; measuredOn?: string }
    >;
    for (const [version, v] of Object.entries(spec)) assert.ok(v.expected && v.measuredOn, version);
    assert.match(
      fs.readFileSync(path.join(root, 'scripts', 'provision.mjs'), 'utf8'),
      /measured on \$\{spec\.measuredOn\}/,
    );
  });

  it('turns the extension gallery off (code-server would query open-vsx.org) and names the demo key', async () => {
    const { start } = await load();
    assert.deepEqual(JSON.parse(start.OFFLINE_ENV.EXTENSIONS_GALLERY), {}, 'a gallery without a service URL is off');
    assert.equal(start.DEMO_KEY_NAME, 'demo (emulator)');
  });

  it("the Node version: package.json engines.node, the README's requirement and the check agree", async () => {
    const { start } = await load();
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node?: string } };
    assert.equal(pkg.engines.node, '>=20.19.0');
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    assert.match(readme, /Requirements: Node 20\.19\+/);
    assert.ok(start.nodeSupported('20.19.0', '20.19.0'));
    assert.ok(start.nodeSupported('24.1.0', '20.19.0'));
    assert.ok(!start.nodeSupported('20.18.3', '20.19.0'));
    assert.ok(!start.nodeSupported('18.20.0', '20.19.0'));
    assert.throws(
      () => start.assertNodeVersion(pkg, '20.11.1'),
      /Node 20\.11\.1 is too old: this project needs Node 20\.19\.0/,
    );
    start.assertNodeVersion(pkg, process.versions.node);
  });

  it('summarises npm, install-script, node-gyp and make lines into what is being downloaded, run and compiled', async () => {
    const { progress } = await load();
    const s = progress.summarizeInstallLine;
    assert.deepEqual(
      s('npm http fetch GET 200 https://registry.npmjs.org/code-server/-/code-server-4.139.1.tgz 812ms (cache miss)'),
      { phase: 'download', detail: 'code-server' },
    );
    assert.deepEqual(s('npm http fetch GET 200 https://registry.npmjs.org/@vscode%2fspdlog 120ms'), {
      phase: 'download',
      detail: '@vscode/spdlog',
    });
    assert.deepEqual(s('> code-server@4.139.1 postinstall'), { phase: 'script', detail: 'code-server postinstall' });
    assert.deepEqual(s("make: Entering directory '/x/lib/vscode/node_modules/@vscode/spdlog/build'"), {
      phase: 'build',
      detail: '@vscode/spdlog',
    });
    assert.deepEqual(s('  CXX(target) Release/obj.target/pty/src/unix/pty.o'), {
      phase: 'build',
      detail: 'pty: pty.o',
    });
    assert.deepEqual(s('gyp info spawn make'), { phase: 'build' });
    assert.equal(s('npm warn deprecated inflight@1.0.6'), undefined);
    assert.equal(s(''), undefined);
  });

  it('prints the phase when it changes and a status line with the elapsed time every 10 s', async () => {
    const { progress } = await load();
    const printed: string[] = [];
    let now = 0;
    let tick: (() => void) | undefined;
    const timers = {
      setInterval: (fn: () => void, ms: number) => {
        assert.equal(ms, 10_000);
        tick = fn;
        return 1;
      },
      clearInterval: () => (tick = undefined),
    };
    const p = progress.installProgress('installing code-server 4.139.1 (VS Code 1.139.1)', {
      log: (line: string) => printed.push(line),
      now: () => now,
      timers,
      expected: '2–5 min',
    });
    p.line('npm http fetch GET 200 https://registry.npmjs.org/code-server/-/code-server-4.139.1.tgz 812ms');
    p.line('npm http fetch GET 200 https://registry.npmjs.org/node-pty/-/node-pty-1.1.0.tgz 80ms');
    now = 1_000;
    p.line('> argon2@0.41.1 install'); // a phase change within 3 s of the last line waits for the next status line
    p.line('npm http fetch GET 200 https://registry.npmjs.org/node-pty/-/node-pty-1.1.0.tgz 80ms');
    now = 10_000;
    tick!();
    now = 75_000;
    p.line("make: Entering directory '/x/node_modules/@vscode/spdlog/build'");
    p.stop();
    assert.equal(tick, undefined, 'stop() ends the timer');
    assert.deepEqual(printed, [
      '[provision] 0s (usually 2–5 min): installing code-server 4.139.1 (VS Code 1.139.1) — downloading packages — 1 downloaded — last: code-server',
      '[provision] 10s (usually 2–5 min): installing code-server 4.139.1 (VS Code 1.139.1) — downloading packages — 3 downloaded — last: node-pty',
      '[provision] 1m15s (usually 2–5 min): installing code-server 4.139.1 (VS Code 1.139.1) — compiling native modules (node-gyp, make, g++) — 3 downloaded — last: @vscode/spdlog',
    ]);
  });
});
