// @-mentions, the pure parts: fuzzy ranking of workspace paths, which named kinds a query asks for, the texts the
// problems / folder / terminal mentions attach (capped), and the attachment each becomes (size in tokens, cut note).
import * as assert from 'node:assert/strict';
import {
  ATTACHMENT_LIMIT,
  attachmentTokens,
  makeAttachment,
  mentionAttachment,
} from '../../../src/chat/composer/attachments';
import {
  foldersOf,
  formatListing,
  formatProblems,
  formatTerminalRun,
  fuzzyScore,
  namedKindsFor,
  rankPaths,
  type ProblemEntry,
} from '../../../src/chat/composer/mentions';
import { formatAttachment } from '../../../src/chat/ask/requestBuilder';

describe('@-mentions (pure)', () => {
  const paths = [
    'src/chat/composer.ts',
    'src/webview/chat/composer.ts',
    'src/chat/session.ts',
    'src/c/o/m/p/o/s/e/r.ts',
    'docs/architecture.md',
    'README.md',
    'test/unit/chat/session.test.ts',
  ];

  it('ranks file-name matches first, then runs of characters and word starts; shorter paths win ties', () => {
    assert.deepEqual(rankPaths('composer', paths).slice(0, 3), [
      'src/chat/composer.ts',
      'src/webview/chat/composer.ts',
      'src/c/o/m/p/o/s/e/r.ts',
    ]);
    assert.equal(rankPaths('sess', paths)[0], 'src/chat/session.ts', 'the shorter of two equal name matches');
    assert.equal(rankPaths('readme', paths)[0], 'README.md', 'case does not matter');
    assert.equal(rankPaths('arch', paths)[0], 'docs/architecture.md');
    assert.equal(rankPaths('wvcomp', paths)[0], 'src/webview/chat/composer.ts', 'letters spread over the path');
    assert.deepEqual(rankPaths('zzz', paths), [], 'no match, no entry');
    assert.equal(fuzzyScore('xq', 'src/chat/composer.ts'), undefined);
    assert.equal(rankPaths('', paths, 3).length, 3, 'an empty query lists the first ones, capped');
    assert.equal(rankPaths('', paths)[0], 'README.md', 'shortest first for an empty query');
  });

  it('caps the list and lists each folder of the files once', () => {
    const many = Array.from({ length: 500 }, (_, i) => `src/file${i}.ts`);
    assert.equal(rankPaths('file', many, 40).length, 40);
    assert.deepEqual(foldersOf(['a/b/c.ts', 'a/d.ts', 'e.ts']).sort(), ['a', 'a/b']);
  });

  it('offers the named kinds a query matches (all of them for a bare @)', () => {
    assert.deepEqual(namedKindsFor(''), ['problems', 'terminal', 'changes', 'selection']);
    assert.deepEqual(namedKindsFor('prob'), ['problems']);
    assert.deepEqual(namedKindsFor('term'), ['terminal']);
    assert.deepEqual(namedKindsFor('chan'), ['changes']);
    assert.deepEqual(namedKindsFor('sel'), ['selection']);
    assert.deepEqual(namedKindsFor('composer.ts'), []);
  });

  it('formats problems as path:line:col severity message, errors first, capped with a count of the rest', () => {
    const entries: ProblemEntry[] = [
      { path: 'b.ts', line: 9, character: 0, severity: 'warning', message: 'unused x', source: 'ts' },
      { path: 'a.ts', line: 2, character: 4, severity: 'error', message: 'missing ;\nsecond line' },
      { path: 'a.ts', line: 0, character: 0, severity: 'error', message: 'first' },
    ];
    assert.equal(
      formatProblems(entries),
      'a.ts:1:1 error first\na.ts:3:5 error missing ;\nb.ts:10:1 warning [ts] unused x',
    );
    const lots = Array.from({ length: 250 }, (_, i) => ({ ...entries[0], line: i }));
    const text = formatProblems(lots, 200);
    assert.equal(text.split('\n').length, 201);
    assert.match(text, /… and 50 more problems$/);
    assert.equal(formatProblems([]), 'No problems reported.');
  });

  it('lists a folder with directories first and marks secret entries (named, never read)', () => {
    const text = formatListing([
      { name: 'z.ts', directory: false },
      { name: '.env', directory: false, secret: '.env*' },
      { name: 'lib', directory: true },
    ]);
    assert.equal(text, 'lib/\n.env (secret: not shared)\nz.ts');
    const big = formatListing(
      Array.from({ length: 600 }, (_, i) => ({ name: `f${i}`, directory: false })),
      500,
    );
    assert.match(big, /… and 100 more entries$/);
  });

  it('turns a terminal run into plain text: escapes and overwritten progress removed, the exit code said', () => {
    const text = formatTerminalRun({
      commandLine: 'npm test',
      output: '\u001b]633;C\u0007\u001b[32m✔ passes\u001b[0m\r\nprogress 10%\rprogress 100%\r\nfailed   \r\n',
      exitCode: 1,
    });
    assert.equal(text, '$ npm test\n✔ passes\nprogress 100%\nfailed\n[exit code 1]');
    assert.equal(
      formatTerminalRun({ commandLine: 'true', output: '' }),
      '$ true\n(no output captured)\n[exit code unknown]',
    );
  });

  it('a mention becomes an attachment with its size in tokens, cut to the limit with a visible note', () => {
    const a = mentionAttachment('m1', 'problems', 'problems', 'a.ts:1:1 error x');
    assert.equal(a.tokens, attachmentTokens('problems', 'problems', 'a.ts:1:1 error x'.length));
    assert.ok(a.tokens! > 0 && !a.truncated);
    const big = mentionAttachment('m2', 'terminal', 'bash', 'y'.repeat(ATTACHMENT_LIMIT + 5));
    assert.equal(big.truncated, true);
    assert.match(big.text, /… \(cut: 5 more characters\)$/);
    assert.ok(big.tokens! > ATTACHMENT_LIMIT / 3);
    const file = makeAttachment('f', { path: 'src/a.ts', languageId: 'typescript', text: 'const a = 1;' });
    assert.equal(file.tokens, attachmentTokens('file', 'src/a.ts', 12), 'Ask about File chips show their size too');
  });

  it('one estimate: the list (from the file size) and the chip (from the text read) agree, CJK and many lines too', () => {
    for (const text of ['line\n'.repeat(60), '中文注释\n'.repeat(20) + 'const a = "x";\n']) {
      const fromSize = attachmentTokens('file', 'src/text.js', Buffer.byteLength(text));
      const chip = makeAttachment('f', { path: 'src/text.js', languageId: 'javascript', text }).tokens;
      assert.equal(chip, fromSize);
      // Within a few tokens of what the request carries (the fences and the label, in the context-fit estimate's rate).
      const formatted = formatAttachment({
        id: 'f',
        kind: 'file',
        path: 'src/text.js',
        languageId: 'javascript',
        text,
      });
      assert.ok(Math.abs(chip! - Math.ceil(Buffer.byteLength(formatted) / 3)) <= 3, `${chip}`);
    }
  });

  it('tells the model what each kind is', () => {
    const base = { id: 'x', languageId: 'plaintext', text: 't' };
    const head = (kind: Parameters<typeof mentionAttachment>[1], path: string) =>
      formatAttachment({ ...base, kind, path }).split('\n')[0];
    assert.equal(head('folder', 'src'), 'Listing of the folder `src`:');
    assert.equal(head('problems', 'problems'), 'Problems in the workspace (path:line:column severity message):');
    assert.equal(head('terminal', 'bash'), 'Output of the last command in the terminal `bash`:');
    assert.equal(head('changes', 'ws'), 'Uncommitted changes (git diff against HEAD) in `ws`:');
    assert.equal(head('file', 'a.ts'), 'File `a.ts`:');
  });
});
