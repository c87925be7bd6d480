// Earlier agent turns in later requests: what the model did (tool_use / tool_result pairs) is sent again when the
// conversation goes on, compacted but valid for the API, also after a reload (a new session and AgentTurns over
// the same stored state). Whole turns through the session, AgentTurns, the real loop and the real gateway client
// against the emulator over a socket; the request bodies are recorded on their way out.
import { strict as assert } from 'node:assert';
import type { Tool } from '../../../src/agent';
import { agentHistory, compactTranscript, HISTORY_RESULT_CHARS } from '../../../src/chat/agent/agentHistory';
import { NO_IMAGES } from '../../../src/chat/ask/requestBuilder';
import type { ContentBlockParam, MessageParam } from '../../../src/gateway/types';
import type { ChatMessage } from '../../../src/shared/protocol/chat';
import { agentSession, memoryHistoryStorage, readFileTool } from './chatSessionFixture';
import { useEmulator } from '../emulator/helpers';

const BIG = 'x'.repeat(HISTORY_RESULT_CHARS * 3);

const readTool = (): Tool => readFileTool({ 'a.ts': 'export const a = 1;\n', 'big.txt': BIG });

const blocks = (m: MessageParam): ContentBlockParam[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;

describe('agent history: earlier turns keep their tool calls', function () {
  this.timeout(30_000);
  const emulator = useEmulator();

  /** A session with Agent mode; `state` and `storage` survive a "reload" when passed again. */
  function setup(state = new Map<string, unknown>(), storage = memoryHistoryStorage(), maxSteps = 25) {
    const t = agentSession({ emulator: emulator(), tools: () => [readTool()], state, storage, maxSteps });
    return { ...t, ask: (text: string) => t.sendUntilFinished(text) };
  }

  it("a follow-up question carries the first turn's tool_use and tool_result (long results shortened), also after a reload", async () => {
    const first = setup();
    await first.s.load();
    first.s.setMode('agent');
    await first.ask(
      'Look at them.\n@tools-parallel read_file {"path":"a.ts"} read_file {"path":"big.txt"}\n@after-result-say Read both.',
    );
    assert.equal(first.sent.length, 2, 'one tool step and the final answer');
    const ids = blocks(first.sent[1].messages[1])
      .filter((b) => b.type === 'tool_use')
      .map((b) => (b as { id: string }).id);
    assert.equal(ids.length, 2);

    await first.ask('@tool read_file {"path":"a.ts"}\nAnd again.');
    const follow = first.sent[2].messages;
    // question 1, assistant(tool_use ×2), user(tool_result ×2), assistant(final), question 2
    assert.deepEqual(
      follow.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant', 'user'],
    );
    assert.deepEqual(
      blocks(follow[1])
        .filter((b) => b.type === 'tool_use')
        .map((b) => [(b as { id: string }).id, (b as { input: unknown }).input]),
      [
        [ids[0], { path: 'a.ts' }],
        [ids[1], { path: 'big.txt' }],
      ],
    );
    const results = blocks(follow[2]).filter((b) => b.type === 'tool_result') as Array<{
      tool_use_id: string;
      content: string;
    }>;
    assert.deepEqual(
      results.map((r) => r.tool_use_id),
      ids,
    );
    assert.equal(results[0].content, 'export const a = 1;\n');
    assert.ok(
      results[1].content.length < HISTORY_RESULT_CHARS + 100 &&
        /characters left out of this earlier tool call/.test(results[1].content),
      'a long result is shortened, with a marker',
    );
    assert.match(JSON.stringify(follow[3].content), /Read both\./);
    assert.match(JSON.stringify(follow[4].content), /And again\./);
    assert.equal(first.s.store.active.messages.at(-1)?.status, 'complete', 'the gateway accepted the history');

    // After a reload: a new session and AgentTurns over the same stored conversation and state.
    const again = setup(first.state, first.storage);
    await again.s.load();
    await again.ask('@tool read_file {"path":"a.ts"}\nOnce more.');
    const reloaded = again.sent[0].messages;
    // The last earlier turn goes with its calls and results; the one before it as its final answer with a note of
    // its calls (EARLIER_TRANSCRIPTS): its results are stale and were paid for.
    assert.deepEqual(
      reloaded.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user'],
    );
    assert.equal(typeof reloaded[1].content, 'string', 'the first turn as text');
    assert.match(String(reloaded[1].content), /read_file: .*a\.ts -> ok[\s\S]*Read both\./);
    assert.equal(blocks(reloaded[3]).filter((b) => b.type === 'tool_use').length, 1, "the second turn's call is there");
  });

  it('a turn cut by the step budget ends with tool results: the next question joins that user message', async () => {
    const t = setup(new Map(), memoryHistoryStorage(), 1);
    await t.s.load();
    t.s.setMode('agent');
    await t.ask('Loop.\n@steps 5\n@tool read_file {"path":"a.ts"}');
    await t.ask('@tool read_file {"path":"a.ts"}\nWhy did you stop?');
    const m = t.sent[1].messages;
    assert.deepEqual(
      m.map((x) => x.role),
      ['user', 'assistant', 'user'],
    );
    assert.deepEqual(
      blocks(m[2]).map((b) => b.type),
      ['tool_result', 'text'],
      'results first, then the question',
    );
    assert.equal(t.s.store.active.messages.at(-1)?.status, 'complete');
  });

  it('compactTranscript: images and thinking left out, long input strings shortened, ids kept; unknown turns fall back to text', () => {
    const compact = compactTranscript([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 's' } as unknown as ContentBlockParam,
          { type: 'text', text: 'Writing.' },
          {
            type: 'tool_use',
            id: 't1',
            name: 'create_file',
            input: { path: 'a', content: 'y'.repeat(5000) },
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [
              { type: 'text', text: 'ok' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
            ],
            is_error: true,
          },
        ],
      },
    ]);
    assert.deepEqual(
      blocks(compact[0]).map((b) => b.type),
      ['text', 'tool_use'],
    );
    const use = blocks(compact[0])[1] as { id: string; input: { content: string }; cache_control?: unknown };
    assert.equal(use.id, 't1');
    assert.equal(use.cache_control, undefined);
    assert.ok(use.input.content.length < 2200);
    assert.deepEqual(blocks(compact[1])[0], {
      type: 'tool_result',
      tool_use_id: 't1',
      content: 'ok\n[an image, left out of the history]',
      is_error: true,
    });

    const msg = (id: string, role: 'user' | 'assistant', text: string, turnId?: string): ChatMessage => ({
      id,
      role,
      text,
      status: 'complete',
      createdAt: 0,
      ...(turnId ? { agent: { turnId, tools: [], steps: [] } } : {}),
    });
    const history = [
      msg('1', 'user', 'q1'),
      msg('2', 'assistant', 'a1', 'known'),
      msg('3', 'user', 'q2'),
      msg('4', 'assistant', 'a2', 'gone'),
      msg('5', 'user', 'q3'),
    ];
    const out = agentHistory(
      history,
      (id) =>
        id === 'known' ? compact.concat([{ role: 'assistant', content: [{ type: 'text', text: 'done' }] }]) : undefined,
      NO_IMAGES,
    );
    assert.deepEqual(
      out.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user'],
    );
    assert.deepEqual(out[5], { role: 'assistant', content: 'a2' }, 'a turn without a transcript is sent as its text');
    // A transcript whose tool_use has no result is never sent (the API would refuse the request).
    const broken = agentHistory(history.slice(0, 3), () => [compact[0]], NO_IMAGES);
    assert.deepEqual(
      broken.map((m) => m.content),
      ['q1', 'a1', 'q2'],
    );
  });
});
