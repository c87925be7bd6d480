// Localization check: the strings the code uses (extracted with @vscode/l10n-dev, as `npm run l10n:export` does)
// are exactly the keys of l10n/bundle.l10n.json and of every translated bundle, the manifest's %key% placeholders
// are exactly the keys of every package.nls*.json, placeholders survive translation, and the localized folders show
// no English-only text. Folders not yet localized are counted in a printed report instead of failing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { makeTempDir, removeTempDir } from '../support/tempDir';

const root = path.resolve(__dirname, '..', '..');
const readJson = (file: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;

/** Folders (and files) whose user-visible host strings all go through vscode.l10n.t or a Localizer. */
const LOCALIZED = [
  'src/keys',
  'src/diagnostics',
  'src/catalog',
  'src/platform',
  'src/images',
  'src/chat',
  'src/lm',
  'src/agent',
  'src/agentHost',
  'src/extension.ts',
  'src/services.ts',
  'src/webview',
];
/** Not localized yet (a later phase): only counted. The webviews' own, stricter check: test/unit/webview/strings.test.ts. */
const PENDING: string[] = [];

/**
 * Text written for the model, not the user, stays English: tool definitions (a `description` next to an
 * `inputSchema`, and everything inside the schema), error objects (`new …Error({ message })`: the advice turns
 * them into words), and these functions, whose results are tool results the model reads.
 */
const MODEL_FACING: Record<string, string[]> = {
  'src/agentHost/text.ts': ['applySearchReplace'],
  'src/agentHost/proposals.ts': ['apply', 'accept'],
};

/** Translated bundles: l10n/bundle.l10n.<lang>.json and package.nls.<lang>.json. */
function translations(dir: string, prefix: string): Array<{ lang: string; file: string }> {
  return fs
    .readdirSync(path.join(root, dir))
    .map((name) => ({
      name,
      m: new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.([a-z]{2}(?:-[a-z]+)?)\\.json$`).exec(name),
    }))
    .filter((x) => x.m)
    .map((x) => ({ lang: x.m![1], file: path.posix.join(dir === '.' ? '' : dir, x.name) }));
}

/** What must survive translation: {n} placeholders, command links, setting links, inline code and URLs. */
function tokens(text: string): string[] {
  const found = [
    ...(text.match(/\{\d+\}/g) ?? []),
    ...(text.match(/\(command:[^)]+\)/g) ?? []),
    ...(text.match(/#modelGateway\.[\w.]+#/g) ?? []),
    ...(text.match(/`[^`]+`/g) ?? []),
    ...(text.match(/https?:\/\/[\w./-]+[\w/]/g) ?? []),
  ];
  return found.sort();
}

function tokenMismatches(english: Record<string, unknown>, translated: Record<string, unknown>): string[] {
  return Object.keys(english)
    .filter(
      (key) =>
        typeof translated[key] === 'string' &&
        JSON.stringify(tokens(String(english[key]))) !== JSON.stringify(tokens(String(translated[key]))),
    )
    .map(
      (key) =>
        `${key}: ${JSON.stringify(tokens(String(english[key])))} vs ${JSON.stringify(tokens(String(translated[key])))}`,
    );
}

/** Every "%key%" value in the manifest, with where it is. */
function manifestKeys(value: unknown, at = ''): Array<{ key: string; at: string }> {
  if (typeof value === 'string') {
    const m = /^%([^%\s]+)%$/.exec(value);
    return m ? [{ key: m[1], at }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => manifestKeys(v, `${at}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => manifestKeys(v, at ? `${at}.${k}` : k));
  return [];
}

/** User-visible manifest fields that are still plain English (not "%key%"). */
function manifestEnglish(pkg: Record<string, unknown>): string[] {
  const out: string[] = [];
  const plain = (value: unknown, at: string): void => {
    if (typeof value === 'string' && value.trim() && !/^%[^%\s]+%$/.test(value)) out.push(at);
  };
  const c = (pkg.contributes ?? {}) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  plain(pkg.description, 'description');
  for (const [i, v] of (c.viewsContainers?.activitybar ?? []).entries())
    plain(v.title, `viewsContainers.activitybar[${i}].title`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  for (const [group, views] of Object.entries(c.views ?? {}) as Array<[string, any[]]>) {
    views.forEach((v, i) => {
      plain(v.name, `views.${group}[${i}].name`);
      plain(v.contextualTitle, `views.${group}[${i}].contextualTitle`);
    });
  }
  for (const cmd of c.commands ?? []) {
    plain(cmd.title, `commands ${cmd.command} title`);
    plain(cmd.category, `commands ${cmd.command} category`);
  }
  const blocks = Array.isArray(c.configuration) ? c.configuration : c.configuration ? [c.configuration] : [];
  for (const block of blocks) {
    plain(block.title, 'configuration.title');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    for (const [name, p] of Object.entries(block.properties ?? {}) as Array<[string, any]>) {
      for (const field of [
        'description',
        'markdownDescription',
        'patternErrorMessage',
        'deprecationMessage',
        'markdownDeprecationMessage',
      ])
        plain(p[field], `${name}.${field}`);
      for (const field of ['enumDescriptions', 'markdownEnumDescriptions'])
        (p[field] ?? []).forEach((v: unknown, i: number) => plain(v, `${name}.${field}[${i}]`));
    }
  }
  for (const t of c.languageModelTools ?? []) {
    plain(t.displayName, `languageModelTools ${t.name} displayName`);
    plain(t.userDescription, `languageModelTools ${t.name} userDescription`);
  }
  for (const p of c.chatParticipants ?? []) {
    plain(p.description, `chatParticipants ${p.id} description`);
    for (const pc of p.commands ?? []) plain(pc.description, `chatParticipants ${p.id} /${pc.name} description`);
  }
  for (const w of c.walkthroughs ?? []) {
    plain(w.title, `walkthroughs ${w.id} title`);
    plain(w.description, `walkthroughs ${w.id} description`);
    for (const s of w.steps ?? []) {
      plain(s.title, `walkthroughs ${w.id} ${s.id} title`);
      plain(s.description, `walkthroughs ${w.id} ${s.id} description`);
    }
  }
  return out;
}

// ---- English-only text in the sources (TypeScript AST) ----

const UI_CALLS =
  /^(show(Information|Warning|Error)Message|setStatusBarMessage|showInputBox|showQuickPick|showOpenDialog|showSaveDialog|withProgress|createWebviewPanel)$/;
/**
 * Calls whose string arguments are not shown: the webview document's <title> (tests find webviews by it; the tab shows
 * the panel title).
 */
const NON_UI_CALLS = /^(renderWebviewHtml)$/;
const UI_PROPS =
  /^(title|prompt|placeHolder|placeholder|label|description|detail|openLabel|tooltip|message|notice|validationMessage|summary)$/;

/** Text a user would read: words, once the product name, codicons and interpolations are set aside. */
function looksLikeWords(text: string): boolean {
  const rest = text
    .replace(/Model Gateway/g, '')
    .replace(/\$\([\w-]+\)/g, '')
    .replace(/\{\d+\}/g, '')
    .replace(/https?:\/\/\S+/g, '');
  return /[A-Za-z]{2,}[,.:;!?]?\s+[A-Za-z]{2,}/.test(rest) || /^\s*[A-Z][a-z]{2,}[.!?]?\s*$/.test(rest);
}

function isL10nCall(node: ts.Node): boolean {
  return (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === 't' &&
    /(^|\.)l10n$/.test(node.expression.expression.getText())
  );
}

/** User-visible English literals of one file: in UI calls' arguments or UI properties, not inside l10n.t(...). */
function englishLiterals(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const modelFacing = MODEL_FACING[file.replace(/\\/g, '/')] ?? [];
  const visit = (node: ts.Node, inUi: boolean): void => {
    if (isL10nCall(node)) return; // its message is the key; its arguments are data
    if (
      (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) &&
      node.name &&
      modelFacing.includes(node.name.getText())
    )
      return;
    if (ts.isNewExpression(node) && /Error$/.test(node.expression.getText())) return;
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'inputSchema') return;
    if (
      ts.isObjectLiteralExpression(node) &&
      node.properties.some((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'inputSchema')
    ) {
      node.properties.forEach((p) => {
        if (!(ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'description')) visit(p, inUi);
      });
      return;
    }
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression)
        ? node.expression.name.text
        : node.expression.getText();
      if (/^(info|warn|error|debug|trace)$/.test(callee)) return; // the log stays English (support reads it)
      if (NON_UI_CALLS.test(callee)) return;
      if (UI_CALLS.test(callee)) {
        visit(node.expression, inUi);
        node.arguments.forEach((arg) => visit(arg, true));
        return;
      }
    }
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && UI_PROPS.test(node.name.text))
      return visit(node.initializer, true);
    if (
      inUi &&
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node))
    ) {
      const raw = ts.isTemplateExpression(node)
        ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('{0}')
        : node.text;
      if (looksLikeWords(raw))
        found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${raw.slice(0, 80)}`);
      if (ts.isTemplateExpression(node)) node.templateSpans.forEach((s) => visit(s.expression, inUi));
      return;
    }
    // A UI argument stays UI through conditionals, arrays, parentheses and object literals, not into calls.
    const keep =
      inUi &&
      (ts.isConditionalExpression(node) ||
        ts.isArrayLiteralExpression(node) ||
        ts.isParenthesizedExpression(node) ||
        ts.isObjectLiteralExpression(node) ||
        ts.isBinaryExpression(node) ||
        ts.isSpreadElement(node) ||
        ts.isAsExpression(node));
    ts.forEachChild(node, (child) => visit(child, keep));
  };
  visit(source, false);
  return found;
}

function filesUnder(entry: string): string[] {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [entry];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(entry, e.name);
    return e.isDirectory() ? filesUnder(rel) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

describe('l10n: bundles and manifest strings', function () {
  this.timeout(60_000);
  let used: Record<string, string>;
  const english = readJson('l10n/bundle.l10n.json');
  const bundles = translations('l10n', 'bundle.l10n');
  const pkg = readJson('package.json');
  const nlsEnglish = readJson('package.nls.json');
  const nlsTranslations = translations('.', 'package.nls');

  before(async function () {
    // About 1 s of one core (13-16 s when the extractor got each file on its own, see scripts/l10n-export.mjs). Pure
    // computation that cannot hang: the limit is a guard, not a budget (a slow machine makes the suite slower, not red).
    this.timeout(600_000);
    // The same extraction as `npm run l10n:export` (@vscode/l10n-dev over src/, pure modules included).
    const exporter = (await import(path.join(root, 'scripts', 'l10n-export.mjs'))) as {
      extractBundle(root: string): Promise<Record<string, string>>;
    };
    used = await exporter.extractBundle(root);
  });

  it('has a Simplified Chinese bundle and manifest translation, and the manifest points at l10n/', () => {
    assert.equal(pkg.l10n, './l10n');
    assert.ok(
      bundles.some((b) => b.lang === 'zh-cn'),
      'l10n/bundle.l10n.zh-cn.json',
    );
    assert.ok(
      nlsTranslations.some((b) => b.lang === 'zh-cn'),
      'package.nls.zh-cn.json',
    );
  });

  it('every key used in the sources is in bundle.l10n.json, and it has no stale keys (npm run l10n:export)', () => {
    assert.ok(
      Object.keys(used).length > 100,
      `only ${Object.keys(used).length} keys extracted: is the extractor finding the calls?`,
    );
    assert.deepEqual(
      Object.keys(used).filter((key) => !(key in english)),
      [],
      'missing from l10n/bundle.l10n.json',
    );
    assert.deepEqual(
      Object.keys(english).filter((key) => !(key in used)),
      [],
      'stale in l10n/bundle.l10n.json',
    );
    assert.deepEqual(
      Object.keys(english).filter((key) => english[key] !== key),
      [],
      'English values differ from their keys',
    );
  });

  it('every translated bundle has exactly the English keys, non-empty, with the same placeholders', () => {
    for (const { file } of bundles) {
      const translated = readJson(file);
      assert.deepEqual(
        Object.keys(english).filter((key) => !(key in translated)),
        [],
        `missing from ${file}`,
      );
      assert.deepEqual(
        Object.keys(translated).filter((key) => !(key in english)),
        [],
        `stale in ${file}`,
      );
      assert.deepEqual(
        Object.keys(translated).filter((key) => typeof translated[key] !== 'string' || !String(translated[key]).trim()),
        [],
        `empty in ${file}`,
      );
      assert.deepEqual(tokenMismatches(english, translated), [], `placeholders changed in ${file}`);
    }
  });

  it('every %key% of package.json is in package.nls.json and every translation, and no nls file has stale keys', () => {
    const keys = [...new Set(manifestKeys(pkg).map((k) => k.key))];
    for (const { file, values } of [
      { file: 'package.nls.json', values: nlsEnglish },
      ...nlsTranslations.map((t) => ({ file: t.file, values: readJson(t.file) })),
    ]) {
      assert.deepEqual(
        keys.filter((key) => typeof values[key] !== 'string' || !String(values[key]).trim()),
        [],
        `missing from ${file}`,
      );
      assert.deepEqual(
        Object.keys(values).filter((key) => !keys.includes(key)),
        [],
        `stale in ${file}`,
      );
      if (file !== 'package.nls.json')
        assert.deepEqual(
          tokenMismatches(nlsEnglish, values),
          [],
          `command links, setting links, code or placeholders changed in ${file}`,
        );
    }
  });

  it('every walkthrough page has a translation per language (VS Code loads <page>.nls.<language>.md), with the same code and links', () => {
    const dir = 'media/walkthrough';
    const pages = fs
      .readdirSync(path.join(root, dir))
      .filter((name) => name.endsWith('.md') && !name.includes('.nls.'));
    assert.ok(pages.length > 0);
    for (const { lang } of nlsTranslations) {
      for (const page of pages) {
        const localized = `${dir}/${page.replace(/\.md$/, `.nls.${lang}.md`)}`;
        assert.ok(fs.existsSync(path.join(root, localized)), `${localized} is missing`);
        const [en, tr] = [`${dir}/${page}`, localized].map((f) => fs.readFileSync(path.join(root, f), 'utf8'));
        assert.deepEqual(tokens(tr), tokens(en), `${localized}: code spans or links differ from ${page}`);
      }
    }
  });

  it('the localized folders show no English-only text; what is still English is reported', () => {
    const strays = LOCALIZED.flatMap(filesUnder).flatMap(englishLiterals);
    const pending = PENDING.map((folder) => ({ folder, literals: filesUnder(folder).flatMap(englishLiterals) }));
    const manifest = manifestEnglish(pkg);
    const report = [
      `l10n report: ${Object.keys(english).length} host strings in l10n/bundle.l10n.json; ${bundles.map((b) => `${b.lang} ${Object.keys(readJson(b.file)).length}`).join(', ')};`,
      `  ${Object.keys(nlsEnglish).length} manifest strings in package.nls.json; ${nlsTranslations.map((t) => `${t.lang} ${Object.keys(readJson(t.file)).length}`).join(', ')}.`,
      `  Still English-only (next phase): ${pending.map((p) => `${p.folder} ${p.literals.length}`).join(', ')}; manifest fields ${manifest.length}${manifest.length ? ` (${manifest.slice(0, 5).join('; ')}${manifest.length > 5 ? '; ...' : ''})` : ''}.`,
    ].join('\n');
    console.log(report);
    assert.deepEqual(strays, [], 'user-visible English literals outside vscode.l10n.t in a localized folder');
  });

  it('the English-only detector finds a literal in a UI call and ignores l10n.t, logs and ids', () => {
    const dir = makeTempDir('l10n');
    try {
      const file = path.join(dir, 'probe.ts');
      fs.writeFileSync(
        file,
        [
          "import * as vscode from 'vscode';",
          "void vscode.window.showErrorMessage('Model Gateway: the key was rejected.', 'Open Settings');",
          "void vscode.window.showErrorMessage(vscode.l10n.t('Model Gateway: the key was rejected.'), vscode.l10n.t('Open Settings'));",
          "log.warn('Refresh failed for this key.');",
          "void vscode.commands.executeCommand('workbench.action.openSettings', 'modelGateway.baseUrl');",
          "const item = { label: `$(key) ${name}`, detail: cond ? 'Paste the whole key.' : undefined };",
        ].join('\n'),
      );
      const found = englishLiterals(path.relative(root, file)).map((line) => line.replace(/^.*?:(\d+): /, '$1: '));
      assert.deepEqual(found, [
        '2: Model Gateway: the key was rejected.',
        '2: Open Settings',
        '6: Paste the whole key.',
      ]);
    } finally {
      removeTempDir(dir);
    }
  });
});
