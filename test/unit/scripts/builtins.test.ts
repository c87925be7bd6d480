// The test windows' built-in extensions folder (scripts/lib/codeServer.mjs testBuiltinExtensions): code-server's own
// built-ins but the idle ones, as links, so VS Code loads the rest from where they are installed.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { makeTempDir, removeTempDir } from '../../support/tempDir';

interface Builtins {
  IDLE_BUILTINS: string[];
  testBuiltinExtensions(
    info: { entry: string },
    profile: { dir: string },
    env?: Record<string, string | undefined>,
  ): string | undefined;
}

const load = (): Promise<Builtins> =>
  import(path.join(__dirname, '..', '..', '..', 'scripts', 'lib', 'codeServer.mjs')) as Promise<Builtins>;

/** A code-server install as provision.mjs leaves it: out/node/entry.js and lib/vscode/extensions/<name>/package.json. */
function fakeCodeServer(root: string, extensions: string[]): { entry: string; extensions: string } {
  const entry = path.join(root, 'cs', 'out', 'node', 'entry.js');
  fs.mkdirSync(path.dirname(entry), { recursive: true });
  fs.writeFileSync(entry, '');
  const dir = path.join(root, 'cs', 'lib', 'vscode', 'extensions');
  for (const name of extensions) {
    fs.mkdirSync(path.join(dir, name), { recursive: true });
    fs.writeFileSync(path.join(dir, name, 'package.json'), JSON.stringify({ name }));
  }
  return { entry, extensions: dir };
}

describe('test windows: built-in extensions', () => {
  const made: string[] = [];
  const tempDir = (): string => {
    made.push(makeTempDir('builtins'));
    return made.at(-1)!;
  };
  after(() => made.forEach(removeTempDir));

  it('links every built-in but the idle ones, each to where code-server installed it; twice is the same', async () => {
    const { IDLE_BUILTINS, testBuiltinExtensions } = await load();
    const root = tempDir();
    const kept = ['theme-defaults', 'markdown-language-features', 'javascript', 'copilot', 'node_modules'];
    const cs = fakeCodeServer(root, [...kept, 'git', 'typescript-language-features', 'json-language-features']);
    const profile = { dir: path.join(root, 'profile') };
    for (let i = 0; i < 2; i++) {
      const dir = testBuiltinExtensions({ entry: cs.entry }, profile, {});
      assert.ok(dir, 'a folder is given to --builtin-extensions-dir');
      assert.deepStrictEqual(fs.readdirSync(dir).sort(), [...kept].sort());
      for (const name of kept)
        assert.strictEqual(fs.realpathSync(path.join(dir, name)), fs.realpathSync(path.join(cs.extensions, name)));
      assert.strictEqual(
        JSON.parse(fs.readFileSync(path.join(dir, 'theme-defaults', 'package.json'), 'utf8')).name,
        'theme-defaults',
      );
    }
    for (const name of ['git', 'typescript-language-features', 'json-language-features'])
      assert.ok(IDLE_BUILTINS.includes(name), `${name} is one of the idle built-ins`);
  });

  it('MG_ALL_BUILTINS=1 keeps code-server’s own folder (no --builtin-extensions-dir)', async () => {
    const { testBuiltinExtensions } = await load();
    const root = tempDir();
    const cs = fakeCodeServer(root, ['git', 'theme-defaults']);
    const profile = { dir: path.join(root, 'profile') };
    assert.strictEqual(testBuiltinExtensions({ entry: cs.entry }, profile, { MG_ALL_BUILTINS: '1' }), undefined);
    assert.ok(!fs.existsSync(path.join(profile.dir, 'builtin-extensions')));
  });

  it('never leaves out what our features use: Markdown (the Check Connection report), the themes, Copilot’s chat', async () => {
    const { IDLE_BUILTINS } = await load();
    for (const name of ['markdown-language-features', 'theme-defaults', 'theme-seti', 'copilot'])
      assert.ok(!IDLE_BUILTINS.includes(name), name);
  });
});
