import { strict as assert } from 'node:assert';
import {
  buildMessagesRequest,
  formatAttachment,
  NO_IMAGES,
  toMessageParams,
} from '../../../src/chat/ask/requestBuilder';
import type { ChatMessage } from '../../../src/shared/protocol/chat';

const m = (role: 'user' | 'assistant', text: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id: Math.random().toString(36).slice(2),
  role,
  text,
  status: 'complete',
  createdAt: 0,
  ...extra,
});

describe('chat request building', () => {
  it('builds model, max_tokens, system prompt and alternating turns', () => {
    const request = buildMessagesRequest(
      [m('user', 'q1'), m('assistant', 'a1'), m('user', 'q2')],
      { model: 'x', maxTokens: 9, systemPrompt: 'Be brief.' },
      NO_IMAGES,
    );
    assert.deepEqual(request, {
      model: 'x',
      max_tokens: 9,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'a1' },
        { role: 'user', content: 'q2' },
      ],
    });
    assert.equal(
      buildMessagesRequest([m('user', 'q')], { model: 'x', maxTokens: 1, systemPrompt: '  ' }, NO_IMAGES).system,
      undefined,
    );
  });

  it('leaves out failed empty answers and merges the questions around them', () => {
    const params = toMessageParams(
      [m('user', 'q1'), m('assistant', '', { status: 'error' }), m('user', 'q2')],
      NO_IMAGES,
    );
    assert.deepEqual(params, [{ role: 'user', content: 'q1\n\nq2' }]);
  });

  it('never starts with an assistant turn, and trims a trailing assistant prefill', () => {
    const params = toMessageParams([m('assistant', 'hello'), m('user', 'q'), m('assistant', 'partial  \n')], NO_IMAGES);
    assert.deepEqual(params, [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'partial' },
    ]);
  });

  it('puts attachments before the question, with path, lines, language and a fence that cannot close early', () => {
    const attachment = {
      id: 'a',
      kind: 'selection' as const,
      path: 'src/x.md',
      languageId: 'markdown',
      text: 'has ``` and ````',
      startLine: 3,
      endLine: 5,
    };
    const text = formatAttachment(attachment);
    assert.ok(text.startsWith('Selection from `src/x.md` (lines 3-5):\n`````markdown\n'), text);
    assert.ok(text.endsWith('\n`````'));
    const [param] = toMessageParams([m('user', 'Explain', { attachments: [attachment] })], NO_IMAGES);
    assert.ok(
      typeof param.content === 'string' &&
        param.content.startsWith('Selection from') &&
        param.content.endsWith('\n\nExplain'),
    );
    const [fileOnly] = toMessageParams(
      [m('user', '', { attachments: [{ ...attachment, kind: 'file', startLine: undefined, endLine: undefined }] })],
      NO_IMAGES,
    );
    assert.ok(typeof fileOnly.content === 'string' && fileOnly.content.startsWith('File `src/x.md`:'));
  });
});
