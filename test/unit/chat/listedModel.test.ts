// A conversation's model the active key's list does not name (issue 45): it falls back to what a first start picks
// with that list (the default setting when listed, Agent's before Ask's in Agent mode, else the first chat model).
import { strict as assert } from 'node:assert';
import { createConversation, type Conversation } from '../../../src/chat/session/conversation';
import { listedModelChange } from '../../../src/chat/session/conversationMode';

const chat = (...ids: string[]) => ids.map((id) => ({ id }));
const conversation = (model?: string, mode?: Conversation['mode']): Conversation => {
  const c = createConversation('c1', 0);
  if (model !== undefined) c.overrides.model = model;
  if (mode) c.mode = mode;
  return c;
};
const defaults = (model = '', agentModel?: string) => ({ model, agentModel, maxTokens: 1024, systemPrompt: '' });

describe('chat: a model the active key does not list', () => {
  const altList = chat('claude-alt-opus', 'claude-alt-haiku');
  const altIds = new Set(['claude-alt-opus', 'claude-alt-haiku', 'flux-demo-schnell']);

  it('a listed model stays; so does one the list names under another kind', () => {
    assert.equal(listedModelChange(conversation('claude-alt-haiku'), defaults(), altList, altIds), undefined);
    assert.equal(listedModelChange(conversation('flux-demo-schnell'), defaults(), altList, altIds), undefined);
  });

  it('the conversation own unlisted model falls back to the first chat model, as a first start picks', () => {
    const change = listedModelChange(conversation('claude-demo-haiku'), defaults(), altList, altIds);
    assert.deepEqual(change, { from: 'claude-demo-haiku', to: 'claude-alt-opus', own: undefined });
  });

  it('a listed default setting is what it falls back to (and the conversation drops its own model)', () => {
    const change = listedModelChange(conversation('claude-demo-haiku'), defaults('claude-alt-haiku'), altList, altIds);
    assert.deepEqual(change, { from: 'claude-demo-haiku', to: 'claude-alt-haiku', own: undefined });
  });

  it('an unlisted default setting is passed over: the conversation keeps the first chat model as its own', () => {
    const change = listedModelChange(conversation(), defaults('claude-demo-sonnet'), altList, altIds);
    assert.deepEqual(change, { from: 'claude-demo-sonnet', to: 'claude-alt-opus', own: 'claude-alt-opus' });
  });

  it("Agent mode: the agent's default when listed, else Ask's default when listed, else the first", () => {
    const agent = (d: ReturnType<typeof defaults>) =>
      listedModelChange(conversation('claude-demo-agent', 'agent'), d, altList, altIds)?.to;
    assert.equal(agent(defaults('claude-alt-opus', 'claude-alt-haiku')), 'claude-alt-haiku');
    assert.equal(agent(defaults('claude-alt-haiku', 'claude-demo-agent')), 'claude-alt-haiku');
    assert.equal(agent(defaults('', 'claude-demo-agent')), 'claude-alt-opus');
  });

  it('a key that lists no chat model changes nothing (nothing to fall back to)', () => {
    assert.equal(listedModelChange(conversation('claude-demo-haiku'), defaults(), [], new Set()), undefined);
  });
});
