// A mention's attachment reaches the model in every mode: the pending chips go with the next question of an Ask, an
// Agent and a Plan turn (the session and the real agent loop against the emulator), and only with that question.
import { strict as assert } from 'node:assert';
import type { MessagesRequest } from '../../../src/gateway/types';
import { mentionAttachment } from '../../../src/chat/composer/attachments';
import type { ChatMode } from '../../../src/shared/protocol/chat';
import { useEmulator } from '../emulator/helpers';
import { agentSession, readFileTool } from './chatSessionFixture';

/** The text of the last user message of a request. */
function lastUserText(request: MessagesRequest): string {
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  const content = user?.content ?? '';
  return typeof content === 'string'
    ? content
    : content.map((b) => ('text' in b && typeof b.text === 'string' ? b.text : '')).join('\n');
}

describe('@-mentions through the session (emulator, real loop)', function () {
  this.timeout(30_000);
  const emulator = useEmulator();

  for (const mode of ['ask', 'agent', 'plan'] as ChatMode[]) {
    it(`a mention goes with the next ${mode} question, then not again`, async () => {
      const t = agentSession({
        emulator: emulator(),
        tools: () => [readFileTool({ 'a.ts': 'export const a = 1;\n' })],
        askThroughGateway: true,
      });
      await t.s.load();
      if (mode !== 'ask') assert.equal(t.s.setMode(mode), undefined);
      t.s.addAttachment(mentionAttachment('m1', 'problems', 'problems', 'src/a.ts:3:1 error MENTION-PROBLEM-7'));
      assert.equal(t.of('attachments').at(-1)?.attachments[0].tokens, t.s.snapshot().attachments[0].tokens);
      await t.sendUntilFinished('Fix the problem.');
      const first = lastUserText(t.sent[0]);
      assert.match(first, /^Problems in the workspace \(path:line:column severity message\):\n```plaintext\n/);
      assert.match(first, /src\/a\.ts:3:1 error MENTION-PROBLEM-7\n```\n\nFix the problem\.$/);
      assert.deepEqual(t.s.snapshot().attachments, [], 'the chips went with the question');
      const count = t.sent.length;
      await t.sendUntilFinished('And now?');
      const later = t.sent.slice(count).map(lastUserText);
      assert.ok(
        later.every((text) => !text.startsWith('Problems in the workspace')),
        'a new question has no chips',
      );
    });
  }
});
