// The layers of src/ (docs/architecture.md#layers): no import cycles between files, every folder declared in the
// layer table, and the ESLint rule that enforces the table catches what it should (run on real code snippets).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');

interface LayersModule {
  LAYERS: Record<string, { pure: boolean; glue?: string; imports: string[] }>;
  layersPlugin: NonNullable<Linter.Config['plugins']>[string];
}
/** eslint.config.mjs, where the layer table and its rule live (the same module ESLint loads). */
const layersModule = (): Promise<LayersModule> =>
  import(pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href) as Promise<LayersModule>;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Relative imports and re-exports of a file (type-only ones too: a cycle through types is still a cycle), resolved. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]/gms)) {
    const base = path.resolve(path.dirname(file), m[1]);
    const hit = [`${base}.ts`, path.join(base, 'index.ts'), base].find(
      (c) => fs.existsSync(c) && fs.statSync(c).isFile(),
    );
    if (hit) out.push(hit);
  }
  return out;
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const meta = new Map<string, { index: number; low: number; onStack: boolean }>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    meta.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v)!.low = Math.min(meta.get(v)!.low, meta.get(w)!.low);
      } else if (meta.get(w)!.onStack) {
        meta.get(v)!.low = Math.min(meta.get(v)!.low, meta.get(w)!.index);
      }
    }
    if (meta.get(v)!.low === meta.get(v)!.index) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        meta.get(w)!.onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v))
        found.push(component.map((f) => path.relative(ROOT, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return found;
}

describe('layers of src/', () => {
  it('has no import cycle between files', () => {
    const graph = new Map(sourceFiles(SRC).map((f) => [f, importsOf(f)]));
    assert.ok(graph.size > 100, `read ${graph.size} files`);
    assert.deepEqual(cycles(graph), []);
  });

  it('keeps every folder of src/ at 25 files or fewer (a bigger one is split into rooms that say what they hold)', () => {
    const crowded: string[] = [];
    const walk = (dir: string): void => {
      const entries = fs.readdirSync(dir, { withFileTypes: true });
      const files = entries.filter((e) => e.isFile()).length;
      if (files > 25) crowded.push(`${path.relative(ROOT, dir)}: ${files}`);
      for (const e of entries) if (e.isDirectory()) walk(path.join(dir, e.name));
    };
    walk(SRC);
    assert.deepEqual(crowded, []);
  });

  it('keeps the bench off the tests: bench/ imports src/ and the shared helpers of test/support only', () => {
    const TEST = path.join(ROOT, 'test');
    const stray = sourceFiles(path.join(ROOT, 'bench')).flatMap((file) =>
      importsOf(file)
        .filter((to) => to.startsWith(TEST + path.sep) && !to.startsWith(path.join(TEST, 'support') + path.sep))
        .map((to) => `${path.relative(ROOT, file)} -> ${path.relative(ROOT, to)}`),
    );
    assert.deepEqual(stray, []);
  });

  it('finds a cycle when there is one (the checker itself)', () => {
    assert.deepEqual(
      cycles(
        new Map([
          ['/a', ['/b']],
          ['/b', ['/c']],
          ['/c', ['/a']],
          ['/d', ['/a']],
        ]),
      ).map((c) => c.length),
      [3],
    );
  });

  it('declares every folder of src/ in the layer table', async () => {
    const { LAYERS } = await layersModule();
    const folders = fs
      .readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    assert.deepEqual(Object.keys(LAYERS).sort(), folders);
  });

  describe('the ESLint rule layers/imports', () => {
    const lint = async (file: string, code: string, options: unknown[] = []): Promise<string[]> => {
      const { layersPlugin } = await layersModule();
      const linter = new Linter({ configType: 'flat' });
      const config = [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          plugins: { layers: layersPlugin },
          rules: { 'layers/imports': ['error', ...options] },
        },
      ] as Linter.Config[];
      return linter.verify(code, config, { filename: path.join(SRC, file) }).map((m) => m.message);
    };

    it('allows imports down the table and inside a folder', async () => {
      assert.deepEqual(
        await lint(
          'chat/host/x.ts',
          "import { a } from '../../gateway/types';\nimport { b } from './register';\nimport * as vscode from 'vscode';",
        ),
        [],
      );
      assert.deepEqual(await lint('webview/chat/x.ts', "import type { C } from '../../shared/protocol/chat';"), []);
      assert.deepEqual(await lint('extension.ts', "import { registerChat } from './chat/host/register';"), []);
    });

    it('reports an import up the table, sideways between features, of the composition root, and of vscode in a pure layer', async () => {
      assert.match(
        (await lint('gateway/x.ts', "import { a } from '../platform/services';")).join(),
        /src\/gateway may not import src\/platform/,
      );
      assert.match(
        (await lint('webview/images/x.ts', "import { c } from '../../images/cost';")).join(),
        /src\/webview may not import src\/images/,
      );
      assert.match(
        (await lint('images/x.ts', "export { c } from '../chat/session';")).join(),
        /src\/images may not import src\/chat/,
      );
      assert.match((await lint('platform/x.ts', "import { s } from '../services';")).join(), /composition root/);
      assert.match((await lint('agent/x.ts', "import * as vscode from 'vscode';")).join(), /pure: no vscode/);
      assert.match(
        (await lint('shared/x.ts', "const m = import('../gateway');")).join(),
        /src\/shared may not import src\/gateway/,
      );
    });

    it('keeps a feature folder outside its glue sub-folder (host/) away from vscode and from that glue', async () => {
      assert.match(
        (await lint('lm/tokens.ts', "import * as vscode from 'vscode';")).join(),
        /pure outside src\/lm\/host/,
      );
      assert.match(
        (await lint('chat/session/x.ts', "import * as vscode from 'vscode';")).join(),
        /pure outside src\/chat\/host/,
      );
      assert.match(
        (await lint('chat/session/x.ts', "import { r } from '../host/register';")).join(),
        /may not import its VS Code glue/,
      );
      assert.match((await lint('lm/tokens.ts', "export { p } from './host/provider';")).join(), /VS Code glue/);
      assert.deepEqual(await lint('lm/tokens.ts', "import { m } from './modelInfo';"), []);
      assert.deepEqual(await lint('chat/store/x.ts', "import { s } from '../session/session';"), []);
      assert.deepEqual(
        await lint('chat/host/x.ts', "import * as vscode from 'vscode';\nimport { s } from '../session/session';"),
        [],
      );
    });
  });

  it('keeps vscode in the glue: every src/ file that imports it is in an impure folder, inside its glue sub-folder if it has one', async () => {
    const { LAYERS } = await layersModule();
    const misplaced = sourceFiles(SRC)
      .filter((f) => /^import\s[^;]*?from\s+'vscode'/ms.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(SRC, f).split(path.sep))
      .filter(([folder, sub, ...rest]) => {
        const layer = LAYERS[folder];
        if (rest.length === 0 && sub === undefined) return false; // extension.ts, services.ts: the composition root
        if (!layer || layer.pure) return true;
        return layer.glue !== undefined && sub !== layer.glue;
      })
      .map((parts) => parts.join('/'));
    assert.deepEqual(misplaced, []);
  });
});
