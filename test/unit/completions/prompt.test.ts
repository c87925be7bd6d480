// The pure parts of code completion: the chat fill's extraction (fences, repeated suffix), the fill-in-the-middle
// template tokens as their vendors document them, the mode choice, single line vs block, the budget, the gates.
import * as assert from 'node:assert/strict';
import {
  chatFillPrompt,
  cutRepeatedSuffix,
  extractFill,
  FILL_MARKER,
  stripFences,
} from '../../../src/gateway/completion/chatFill';
import {
  chooseCompletionMode,
  isFillRouteRefusal,
  isFimModelName,
  modeFromSetting,
} from '../../../src/gateway/completion/completionMode';
import { cutAtTemplateToken, fimBody, FIM_TEMPLATE_TOKENS } from '../../../src/gateway/completion/fim';
import { clipAround, cursorShape, lineComment, snippetBlock } from '../../../src/completions/promptContext';
import { refusalOf, type GateSettings } from '../../../src/completions/gates';
import { acceptanceRate, completionTotals, percentile, statsOf } from '../../../src/shared/completionStats';
import { entryOf } from '../../../src/shared/usageLedger';
import { completionSection } from '../../../src/usage/chart';

describe('chat fill: only the fill is taken', () => {
  it('strips a fence with a language tag, and one cut open by max_tokens', () => {
    assert.equal(stripFences('```ts\nfoo(1);\n```'), 'foo(1);');
    assert.equal(stripFences('```\nfoo(1);'), 'foo(1);');
    assert.equal(stripFences('~~~python\nx = 1\n~~~\n'), 'x = 1');
    assert.equal(stripFences('no fence'), 'no fence');
  });

  it('cuts the repeated rest of the line and the repeated next line of the suffix', () => {
    assert.equal(extractFill('```\nvalue, min), max);\n```', 'Math.min(Math.max(', ');\n', true), 'value, min), max');
    assert.equal(
      extractFill('```ts\n  if (n < 2) return n;\n  return n;\n}\n```', 'function f(n) {\n', '}\n', false),
      '  if (n < 2) return n;\n  return n;',
    );
    assert.equal(cutRepeatedSuffix('a\nb\n  }', '\n  }\n'), 'a\nb');
  });

  it('drops a repeated start of the line and an echoed marker', () => {
    assert.equal(extractFill('const total = items.length;', 'const total = ', '\n', true), 'items.length;');
    assert.equal(extractFill(`sum(a, b)${FILL_MARKER}`, 'return ', '\n', true), 'sum(a, b)');
  });

  it('the prompt holds the file with one marked hole, the path and the scope', () => {
    const p = chatFillPrompt({ prefix: 'a(', suffix: ')', path: 'src/x.ts', language: 'typescript', singleLine: true });
    assert.match(p, /File: src\/x\.ts/);
    assert.ok(p.includes(`<file>\na(${FILL_MARKER})\n</file>`));
    assert.match(p, /rest of the line only/);
  });
});

describe('fill-in-the-middle wire rules', () => {
  it('never sends template tokens: the server applies the template when suffix is given', () => {
    const body = JSON.stringify(
      fimBody({ model: 'm', mode: 'fim', prefix: 'def f(', suffix: '):\n', maxTokens: 16, singleLine: true }),
    );
    for (const t of FIM_TEMPLATE_TOKENS) assert.ok(!body.includes(t), t);
  });

  it('a fill ends at a leaked template token of any documented format (Qwen, StarCoder, DeepSeek, Codestral)', () => {
    assert.equal(cutAtTemplateToken('x + 1<|endoftext|>garbage'), 'x + 1');
    assert.equal(cutAtTemplateToken('x + 1<|fim_suffix|>'), 'x + 1');
    assert.equal(cutAtTemplateToken('x<fim_middle>y'), 'x');
    assert.equal(cutAtTemplateToken('x<｜fim▁end｜>y'), 'x');
    assert.equal(cutAtTemplateToken('x[SUFFIX]y'), 'x');
    assert.equal(cutAtTemplateToken('plain'), 'plain');
  });

  it('at most 4 stop sequences (OpenAI /v1/completions), the line end first for a single line', () => {
    const body = fimBody({
      model: 'm',
      mode: 'fim',
      prefix: '',
      suffix: '',
      maxTokens: 8,
      singleLine: true,
      stop: ['a', 'b', 'c', 'd'],
    });
    assert.deepEqual(body.stop, ['\n', 'a', 'b', 'c']);
  });
});

describe('completion mode per model', () => {
  it('setting > learned > model name > chat', () => {
    assert.deepEqual(chooseCompletionMode('qwen2.5-coder-7b', { override: 'chat' }), {
      mode: 'chat',
      reason: 'setting',
    });
    assert.deepEqual(chooseCompletionMode('qwen2.5-coder-7b', { learned: 'chat' }), {
      mode: 'chat',
      reason: 'learned',
    });
    assert.deepEqual(chooseCompletionMode('Qwen2.5-Coder-7B', {}), { mode: 'fim', reason: 'model-name' });
    assert.deepEqual(chooseCompletionMode('codestral-latest', {}), { mode: 'mistral-fim', reason: 'model-name' });
    assert.deepEqual(chooseCompletionMode('claude-sonnet-4', {}), { mode: 'chat', reason: 'default' });
    assert.ok(isFimModelName('deepseek-chat') && isFimModelName('starcoder2-15b') && !isFimModelName('gpt-4o'));
  });

  it('the setting: one value, or a table per model with "*"', () => {
    assert.equal(modeFromSetting('FIM', 'x'), 'fim');
    assert.equal(modeFromSetting({ a: 'chat', '*': 'fim' }, 'a'), 'chat');
    assert.equal(modeFromSetting({ a: 'chat', '*': 'fim' }, 'b'), 'fim');
    assert.equal(modeFromSetting({ a: 'nope' }, 'a'), undefined);
  });

  it('a refusal of the route proves the fallback; a 404 about the model or an unknown outcome does not', () => {
    assert.equal(isFillRouteRefusal({ status: 404, serverMessage: '404 page not found' }), true);
    assert.equal(isFillRouteRefusal({ status: 404, serverMessage: 'Invalid URL (POST /v1/completions)' }), true);
    assert.equal(isFillRouteRefusal({ status: 405 }), true);
    assert.equal(isFillRouteRefusal({ status: 404, serverCode: 'model_not_found' }), false);
    assert.equal(isFillRouteRefusal({ status: 400 }), false);
    assert.equal(isFillRouteRefusal({ status: 404, outcomeUnknown: true }), false);
  });
});

describe('cursor context and budget', () => {
  it('single line mid-line before closers only; block on an empty line after an opener; skip before real code', () => {
    assert.deepEqual(cursorShape('foo(', ');\n'), { skip: false, singleLine: true, maxTokens: 48 });
    assert.equal(cursorShape('function f() {\n  ', '\n}').singleLine, false);
    assert.equal(cursorShape('const x = ', 'other\n').skip, true);
  });

  it('the prefix and suffix are cut at line boundaries within their shares', () => {
    const prefix = Array.from({ length: 400 }, (_, i) => `line ${i}`).join('\n');
    const { prefix: p, suffix: s } = clipAround(prefix, prefix, 1_000);
    assert.ok(p.length <= 750 && p.startsWith('line ') && p.endsWith('line 399'));
    assert.ok(s.length <= 150 && s.startsWith('line 0') && s.endsWith('\n'));
  });

  it('snippets carry their path as a comment header in the language', () => {
    assert.equal(lineComment('python'), '#');
    assert.equal(snippetBlock([{ path: 'src/a.py', text: 'x = 1' }], 'python'), '# Path: src/a.py\n# x = 1\n');
  });
});

describe('completion gates', () => {
  const on: GateSettings = {
    enabled: true,
    languages: {},
    model: 'm',
    trusted: true,
    allowUntrusted: false,
    maxFileKb: 1,
    secretPatterns: ['generated/'],
    budgetReached: false,
    snoozedUntil: 0,
  };
  const doc = { scheme: 'file', languageId: 'typescript', relPath: 'src/a.ts', sizeChars: 100 };
  it('refuses secret and ignored files, other schemes, untrusted folders, huge files, a spent budget, a snooze', () => {
    assert.equal(refusalOf(doc, on, 0), undefined);
    assert.equal(refusalOf({ ...doc, relPath: '.env.local' }, on, 0), 'secret');
    assert.equal(refusalOf({ ...doc, relPath: 'keys/server.pem' }, on, 0), 'secret');
    assert.equal(refusalOf({ ...doc, relPath: 'generated/x.ts' }, on, 0), 'secret');
    assert.equal(refusalOf({ ...doc, scheme: 'output' }, on, 0), 'scheme');
    assert.equal(refusalOf({ ...doc, scheme: 'git' }, on, 0), 'scheme');
    assert.equal(refusalOf({ ...doc, languageId: 'markdown' }, on, 0), 'language');
    assert.equal(refusalOf(doc, { ...on, trusted: false }, 0), 'untrusted');
    assert.equal(refusalOf(doc, { ...on, trusted: false, allowUntrusted: true }, 0), undefined);
    assert.equal(refusalOf({ ...doc, sizeChars: 2_000 }, on, 0), 'too-large');
    assert.equal(refusalOf(doc, { ...on, budgetReached: true }, 0), 'budget');
    assert.equal(refusalOf(doc, { ...on, snoozedUntil: 10 }, 5), 'snoozed');
    assert.equal(refusalOf(doc, { ...on, enabled: false }, 0), 'off');
  });
});

describe('completion figures and ledger kind', () => {
  it('percentiles, acceptance rate, stored stats read defensively', () => {
    assert.equal(percentile([10, 20, 30, 40], 50), 20);
    assert.equal(percentile([10, 20, 30, 40], 95), 40);
    assert.equal(percentile([], 50), undefined);
    assert.equal(acceptanceRate({ shown: 4, accepted: 1, withoutRequest: 0, latencies: [] }), 0.25);
    assert.deepEqual(statsOf('junk'), { shown: 0, accepted: 0, withoutRequest: 0, latencies: [] });
  });

  it('ledger entries keep their kind, and completions are totalled apart', () => {
    const base = {
      t: new Date().toISOString(),
      key: 'k',
      model: 'm',
      route: 'POST /v1/completions',
      input: 10,
      output: 2,
      cacheRead: 0,
      cacheWrite: 0,
    };
    const e = entryOf({ ...base, kind: 'completion', cost: 0.001, costSource: 'billed' })!;
    assert.equal(e.kind, 'completion');
    const chat = entryOf({ ...base, route: 'POST /v1/messages' })!;
    const totals = completionTotals([e, chat], 'k');
    assert.deepEqual([totals.requests, totals.tokens, totals.cost], [1, 12, 0.001]);
  });
});

describe('Show Usage: the completions section', () => {
  it('lists requests, tokens, cost, shown, accepted, rate and latency percentiles; nothing without completions', () => {
    const strings = {
      heading: 'Code completion',
      requests: 'Requests',
      shown: 'Shown',
      accepted: 'Accepted',
      rate: 'Rate',
      latency: 'Latency',
      local: 'Local only <b>',
    };
    const priced = { estimate: 'estimate', partial: 'partial' } as Parameters<typeof completionSection>[3];
    const totals = { tokens: 1234, images: 0, requests: 3, unpriced: 0, estimate: false, cost: 0.003 };
    const html = completionSection(
      totals,
      { shown: 4, accepted: 1, withoutRequest: 1, latencies: [100, 200, 300] },
      strings,
      priced,
    );
    assert.match(html, /<h2>Code completion<\/h2>/);
    assert.match(html, /3 · 1,234 · /);
    assert.match(html, /25\.0 %/);
    assert.match(html, /200 ms \/ 300 ms/);
    assert.match(html, /Local only &lt;b&gt;/);
    const none = { tokens: 0, images: 0, requests: 0, unpriced: 0, estimate: false };
    assert.equal(
      completionSection(none, { shown: 0, accepted: 0, withoutRequest: 0, latencies: [] }, strings, priced),
      '',
    );
  });
});
