// zh-cn punctuation and stored turns (issue 45 item 14): "已完成。 The agent finished." on a turn saved in English, tool
// cards reading "Read src/text.js", a space after "。", ASCII "." and ":" in Chinese sentences. The bundles are
// scanned for the class; the lines built in code are checked through a Localizer over the real zh-cn bundle.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseConversation } from '../../src/chat/store/history';
import { relocalized, STORED_TEMPLATES } from '../../src/chat/store/relocalize';
import { dialectStep } from '../../src/diagnostics/dialectStep';
import { english, type Localizer } from '../../src/shared/l10n';

const ROOT = path.join(__dirname, '..', '..');
const read = (rel: string) => JSON.parse(fs.readFileSync(path.join(ROOT, rel), 'utf8')) as Record<string, string>;
const zhBundle = read('l10n/bundle.l10n.zh-cn.json');
const zh: Localizer = { t: (message, ...args) => english.t(zhBundle[message] ?? message, ...args) };

/** A Chinese character or full-width closing mark, then ASCII sentence punctuation ending the sentence or clause. */
const ASCII_AFTER_CJK = /[\u4e00-\u9fff\uff09\u300b\u201d][.:;,!?](?=\s|$)/;
/** Full-width sentence punctuation followed by a space. */
const SPACE_AFTER_FULL_WIDTH = /[。，：；！？] /;

describe('l10n: zh-cn punctuation and stored turns (issue 45)', () => {
  it('no zh-cn string has ASCII sentence punctuation after Chinese text, or a space after "。", "，" or "："', () => {
    const offenders: string[] = [];
    for (const file of ['l10n/bundle.l10n.zh-cn.json', 'package.nls.zh-cn.json'])
      for (const [key, value] of Object.entries(read(file)))
        if (ASCII_AFTER_CJK.test(value) || SPACE_AFTER_FULL_WIDTH.test(value))
          offenders.push(`${file}: ${key} → ${value}`);
    assert.deepEqual(offenders, []);
    // The scan finds what it is for.
    assert.ok(ASCII_AFTER_CJK.test('一切都需询问. 打开设置') && ASCII_AFTER_CJK.test('默认: x'));
    assert.ok(SPACE_AFTER_FULL_WIDTH.test('已完成。 The agent finished.'));
    assert.ok(!ASCII_AFTER_CJK.test('读取 src/text.js') && !ASCII_AFTER_CJK.test('`name: value`'));
  });

  it("Check Connection's dialect line joins its words and models with a full-width colon", () => {
    const step = dialectStep({ dialectFor: () => ({ dialect: 'messages', reason: 'default' }) }, ['m1', 'm2'], zh);
    assert.equal(step.lines.length, 1);
    assert.ok(!ASCII_AFTER_CJK.test(step.lines[0]), step.lines[0]);
    assert.match(step.lines[0], /）：m1, m2$/);
    const en = dialectStep({ dialectFor: () => ({ dialect: 'messages', reason: 'default' }) }, ['m1'], english);
    assert.match(en.lines[0], /once\): m1$/, 'English unchanged');
  });

  it('every template a stored turn is said again from is a key of the English bundle', () => {
    const en = read('l10n/bundle.l10n.json');
    assert.deepEqual(
      STORED_TEMPLATES.filter((t) => !(t in en)),
      [],
    );
  });

  it('a turn saved in an English window reads in Chinese in a Chinese one: its end line and tool cards', () => {
    assert.equal(relocalized('The agent finished.', zh), '智能体已完成。');
    assert.equal(relocalized('Read src/text.js', zh), '读取 src/text.js');
    assert.equal(relocalized('Read src/a.js from line 3', zh), '读取 src/a.js（从第 3 行起）');
    assert.equal(
      relocalized(
        'Stopped after 25 steps: the step budget of this turn is used up. Continue to let the agent go on.',
        zh,
      ),
      zh.t('Stopped after {0} steps: the step budget of this turn is used up. Continue to let the agent go on.', '25'),
    );
    assert.equal(relocalized('npm test', zh), 'npm test', 'a command is not a sentence of ours');
    assert.equal(relocalized('智能体已完成。', zh), '智能体已完成。');
    assert.equal(relocalized('Read src/text.js', english), 'Read src/text.js');
    const stored = JSON.stringify({
      version: 1,
      conversation: {
        id: 'c1',
        title: 't',
        createdAt: 1,
        updatedAt: 1,
        messages: [
          { id: 'u1', role: 'user', text: 'Read it', status: 'complete', createdAt: 1 },
          {
            id: 'a1',
            role: 'assistant',
            text: 'Done.',
            status: 'complete',
            createdAt: 2,
            agent: {
              turnId: 'turn-1',
              tools: [{ id: 'toolu_1', step: 1, name: 'read_file', summary: 'Read src/text.js', status: 'done' }],
              steps: [],
              end: { reason: 'end_turn', message: 'The agent finished.', retry: false },
            },
          },
        ],
      },
    });
    const agent = parseConversation(stored, zh)!.messages[1].agent!;
    assert.equal(agent.end!.message, '智能体已完成。');
    assert.equal(agent.tools[0].summary, '读取 src/text.js');
    assert.equal(parseConversation(stored)!.messages[1].agent!.end!.message, 'The agent finished.');
  });
});
