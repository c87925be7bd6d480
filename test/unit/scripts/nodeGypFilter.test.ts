// The node-gyp that code-server's install finds first (scripts/lib/nodeGypFilter.cjs), run as npm runs it: in a
// package's folder, with a stand-in for the real node-gyp that writes build/Release/<name>.node and counts its calls.
// A Node-API module is compiled once per package version and copied into the next code-server's copy of it; a NAN
// module, another version, or a failed build is compiled every time; a module nobody loads is never compiled.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, removeTempDir } from '../../support/tempDir';

const FILTER = path.resolve(__dirname, '..', '..', '..', 'scripts', 'lib', 'nodeGypFilter.cjs');

describe('provisioning: node-gyp compiles each Node-API module once', () => {
  let dir: string;
  let calls: string;
  let realGyp: string;
  beforeEach(() => {
    dir = makeTempDir('node-gyp-filter');
    calls = path.join(dir, 'calls.log');
    realGyp = path.join(dir, 'real-node-gyp.js');
    // The stand-in: fails when the package asks it to (FAIL file), else "compiles" a module that names its package.
    fs.writeFileSync(
      realGyp,
      `const fs = require('fs');
       const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
       fs.appendFileSync(${JSON.stringify(calls)}, pkg.name + '@' + pkg.version + ' ' + process.argv.slice(2).join(' ') + '\\n');
       if (fs.existsSync('FAIL')) process.exit(3);
       fs.mkdirSync('build/Release/obj', { recursive: true });
       fs.writeFileSync('build/Release/obj/intermediate.o', 'object');
       fs.writeFileSync('build/Release/' + pkg.name.replace(/\\W/g, '_') + '.node', 'built from ' + process.cwd());`,
    );
  });
  afterEach(() => removeTempDir(dir));

  /** A package folder (one code-server's copy) with the given package.json. */
  function pkg(copy: string, json: Record<string, unknown>): string {
    const folder = path.join(dir, copy, String(json.name));
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify(json));
    return folder;
  }
  function gyp(cwd: string, ...args: string[]): { status: number | null; out: string } {
    const r = spawnSync(process.execPath, [FILTER, ...args], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, MG_REAL_NODE_GYP: realGyp, MG_NATIVE_BUILDS: path.join(dir, 'native-builds') },
    });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  }
  const compiled = () => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : []);
  const napi = (version: string) => ({ name: '@vscode/spdlog', version, dependencies: { 'node-addon-api': '7' } });

  it('the second copy of a Node-API module of the same version gets the first build, not a compile', () => {
    const first = pkg('cs-4.100.3', napi('0.15.8'));
    const second = pkg('cs-4.139.1', napi('0.15.8'));
    assert.equal(gyp(first, 'rebuild').status, 0);
    const again = gyp(second, 'rebuild');
    assert.equal(again.status, 0);
    assert.match(again.out, /not compiling @vscode\/spdlog@0\.15\.8 again/);
    assert.deepEqual(compiled(), ['@vscode/spdlog@0.15.8 rebuild']);
    assert.equal(
      fs.readFileSync(path.join(second, 'build', 'Release', '_vscode_spdlog.node'), 'utf8'),
      `built from ${first}`,
    );
    // Only the loadable module is kept, not the compiler's intermediate files.
    assert.ok(!fs.existsSync(path.join(second, 'build', 'Release', 'obj')));
  });

  it('another version, a NAN module and a build that failed are compiled every time', () => {
    assert.equal(gyp(pkg('a', napi('0.15.8')), 'rebuild').status, 0);
    assert.equal(gyp(pkg('b', napi('0.16.0')), 'rebuild').status, 0);
    const nan = { name: 'old-style', version: '1.0.0', dependencies: { nan: '2', 'node-addon-api': '7' } };
    assert.equal(gyp(pkg('a', nan), 'rebuild').status, 0);
    assert.equal(gyp(pkg('b', nan), 'rebuild').status, 0);
    const failing = pkg('a', { name: 'flaky', version: '2.0.0', dependencies: { 'node-addon-api': '7' } });
    fs.writeFileSync(path.join(failing, 'FAIL'), '');
    assert.equal(gyp(failing, 'rebuild').status, 3, "the real node-gyp's failure is the install's");
    assert.equal(
      gyp(pkg('b', { name: 'flaky', version: '2.0.0', dependencies: { 'node-addon-api': '7' } }), 'rebuild').status,
      0,
    );
    assert.deepEqual(compiled(), [
      '@vscode/spdlog@0.15.8 rebuild',
      '@vscode/spdlog@0.16.0 rebuild',
      'old-style@1.0.0 rebuild',
      'old-style@1.0.0 rebuild',
      'flaky@2.0.0 rebuild',
      'flaky@2.0.0 rebuild',
    ]);
  });

  it('a module no headless test loads is not compiled at all; other node-gyp commands pass through', () => {
    const sqlite = pkg('a', { name: '@vscode/sqlite3', version: '5.1.8', dependencies: { 'node-addon-api': '7' } });
    const skipped = gyp(sqlite, 'rebuild');
    assert.equal(skipped.status, 0);
    assert.match(skipped.out, /not compiling @vscode\/sqlite3: used only by the Copilot agent host/);
    assert.equal(gyp(pkg('a', napi('0.15.8')), 'configure').status, 0);
    assert.deepEqual(compiled(), ['@vscode/spdlog@0.15.8 configure']);
  });
});
