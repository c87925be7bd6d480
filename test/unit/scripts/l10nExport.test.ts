// `npm run l10n:export`'s extraction (scripts/l10n-export.mjs), which test/unit/l10n.test.ts checks the bundles
// against: the files given to @vscode/l10n-dev as one text find exactly what the extractor finds in each file on its
// own, over real source files of every kind the extractor distinguishes.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, removeTempDir } from '../../support/tempDir';

const root = path.resolve(__dirname, '..', '..', '..');

interface Exporter {
  extractBundle(root: string): Promise<Record<string, string>>;
  extractorInputs(root: string): { contents: string; extension: string }[];
}
interface L10nDev {
  getL10nJson(files: { contents: string; extension: string }[]): Promise<Record<string, unknown>>;
}

const SOURCES: Record<string, string> = {
  'src/host.ts': [
    "import * as vscode from 'vscode';",
    "export const a = (n: number) => vscode.l10n.t('Host string {0}', n);",
    "export const b = () => vscode.l10n.t({ message: 'With a comment', comment: ['for translators'] });",
  ].join('\n'),
  'src/gateway/pure.ts': [
    "import type { Localizer } from '../shared/l10n';",
    "export const p = (l10n: Localizer) => l10n.t('Pure string {0}', 'x');",
    // A file that ends in a line comment without a newline: the next file's first line must not become part of it.
    '// no newline at the end',
  ].join('\n'),
  'src/gateway/pure2.ts': "export const q = (l10n: { t(m: string): string }) => l10n.t('Second pure string');",
  'src/named.ts': ["import { l10n } from 'vscode';", "export const n = () => l10n.t('Named import string');"].join(
    '\n',
  ),
  'src/alias.ts': ["import * as vs from 'vscode';", "export const x = () => vs.l10n.t('Aliased string');"].join('\n'),
  'src/mentionsOnly.ts': '// l10n is mentioned here, but nothing is translated\nexport const none = 1;\n',
  'src/plain.ts': 'export const plain = () => "not translated";\n',
  'src/webview/page.ts': "import * as vscode from 'vscode';\nexport const w = () => vscode.l10n.t('Webview string');\n",
};

describe('l10n export: the extraction as one text', function () {
  this.timeout(60_000);
  let dir: string;
  let exporter: Exporter;
  let l10nDev: L10nDev;
  before(async () => {
    dir = makeTempDir('l10n-export');
    for (const [rel, text] of Object.entries(SOURCES)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    exporter = (await import(path.join(root, 'scripts', 'l10n-export.mjs'))) as Exporter;
    l10nDev = (await import('@vscode/l10n-dev')) as L10nDev;
  });
  after(() => removeTempDir(dir));

  it('finds what the extractor finds file by file, and gives it the namespace-import files as one text', async () => {
    // File by file, as before: a pure module gets a synthetic namespace import, webviews are not scanned.
    const oneByOne: Record<string, unknown> = {};
    for (const [rel, text] of Object.entries(SOURCES)) {
      if (rel.startsWith('src/webview/')) continue;
      const contents = /from 'vscode'/.test(text) ? text : `import * as vscode from 'vscode';\n${text}`;
      Object.assign(oneByOne, await l10nDev.getL10nJson([{ contents, extension: '.ts' }]));
    }
    const bundle = await exporter.extractBundle(dir);
    const flat = Object.fromEntries(
      Object.entries(oneByOne).map(([k, v]) => [k, typeof v === 'string' ? v : (v as { message: string }).message]),
    );
    assert.deepEqual(bundle, flat);
    assert.deepEqual(Object.keys(bundle).sort(), [
      'Aliased string',
      'Host string {0}',
      'Named import string',
      'Pure string {0}',
      'Second pure string',
      'With a comment/for translators',
    ]);
    // host.ts and the pure files as one text; the named and the aliased import each on their own.
    const inputs = exporter.extractorInputs(dir);
    assert.equal(inputs.length, 3);
    assert.ok(inputs[0].contents.includes('Host string') && inputs[0].contents.includes('Pure string'));
  });
});
