// The webviews hold no English of their own (issue 18): every word a page shows comes from the host's string table
// (src/shared/webviewStrings.ts, localized by vscode.l10n and sent after 'ready'). This scans src/webview for string
// literals that read like words outside t(…), class names, selectors and logs; and checks the table itself.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { english } from '../../../src/shared/l10n';
import { webviewStrings, webviewStringTable } from '../../../src/shared/webviewStrings';

const root = path.resolve(__dirname, '..', '..', '..');

function files(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    return e.isDirectory() ? files(rel) : e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** Calls whose string arguments are not shown to the user. */
const NOT_SHOWN_CALLS =
  /^(t|querySelector|querySelectorAll|closest|matches|addEventListener|removeEventListener|getElementById|createElement|warn|error|log|debug|add|remove|toggle|contains|replace|test|exec|getAttribute|removeAttribute|hasAttribute|registerLanguage|request|notify|post|toLocaleString|padStart|split|join|startsWith|endsWith|includes)$/;
/** Properties whose values are not shown: class names, ids, data and routing. */
const NOT_SHOWN_PROPS =
  /^(className|type|action|id|role|icon|kind|status|list|rel|href|src|loading|tabindex|spellcheck|for|value|rows|min|max|name|mode|slot)$/;

function wordsOf(text: string): boolean {
  return /[A-Za-z]{2,}[,.:;!?…]?\s+[A-Za-z]{2,}/.test(text) || /^\s*[A-Z][a-z]{2,}[.!?:…]?\s*$/.test(text);
}

/** String literals in src/webview that read like words and are not in a place where text is never shown. */
function englishIn(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(path.join(root, file), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isTypeNode(node) || ts.isExportDeclaration(node)) return;
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression)
        ? node.expression.name.text
        : node.expression.getText();
      if (NOT_SHOWN_CALLS.test(callee)) return;
    }
    if (ts.isPropertyAssignment(node)) {
      const name = ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : '';
      if (NOT_SHOWN_PROPS.test(name) || name.startsWith('data-')) return;
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsEqualsEqualsToken) return;
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      /\.(className|id|type)$/.test(node.left.getText())
    )
      return;
    if (ts.isCaseClause(node)) return node.statements.forEach(visit);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const raw = ts.isTemplateExpression(node)
        ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' x ')
        : node.text;
      if (wordsOf(raw) && !/^codicon /.test(raw))
        found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${raw.slice(0, 80)}`);
      if (ts.isTemplateExpression(node)) node.templateSpans.forEach((s) => visit(s.expression));
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('webview strings', () => {
  it("the pages hold no English: every word they show is looked up in the host's table", () => {
    assert.deepEqual(files('src/webview').flatMap(englishIn), []);
  });

  it('the scan would find English in a page (the checker itself)', () => {
    const probe = path.join('test-results', `webview-probe-${process.pid}.ts`);
    fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
    fs.writeFileSync(
      path.join(root, probe),
      [
        "el('button', { className: 'icon secondary', text: 'Send now', attrs: { 'aria-label': 'Send the question' } });",
        "node.title = t('chat.send');",
        "if (mode === 'Agent mode') console.warn('ignored a malformed message');",
        'status.textContent = `Saving to ${folder}`;',
      ].join('\n'),
    );
    try {
      assert.deepEqual(
        englishIn(probe).map((l) => l.replace(/^.*?:(\d+): /, '$1: ')),
        ['1: Send now', '1: Send the question', '4: Saving to  x '],
      );
    } finally {
      fs.rmSync(path.join(root, probe), { force: true });
    }
  });

  it('the table: English by default, every key namespaced, and the cost factors keyed by their English', () => {
    const strings = webviewStrings(english);
    for (const [key, value] of Object.entries(strings)) {
      assert.match(key, /^(chat|error|agent|changes|images)\.[\w.]+$/);
      assert.ok(value.trim(), key);
    }
    const table = webviewStringTable({ t: (message) => `«${message}»` });
    assert.equal(table['chat.title'], '«Chat»');
    assert.equal(table['{0} reference images'], '«{0} reference images»');
    assert.equal(table['; '], '«; »');
  });
});
