// The composer's Reasoning control (issue 34 item 4): which models carry it and the user's value, and the user
// setting modelGateway.models.reasoning as the host writes it after a choice ('default' removes the entry).
import { strict as assert } from 'node:assert';
import { modelOptionOf, nextReasoningSetting } from '../../../src/chat/composer/modelOptions';
import { chatGuard } from '../../../src/shared/protocol/chat';

describe('the composer reasoning choice', () => {
  it('marks the models believed to reason and carries the user value for them', () => {
    const o3 = modelOptionOf({ id: 'o3', kind: 'chat', raw: { id: 'o3' } }, true, {}, { o3: 'high' });
    assert.equal(o3.reasons, true);
    assert.equal(o3.reasoning, 'high');
    const listed = modelOptionOf({ id: 'm', kind: 'chat', raw: { id: 'm', supports_reasoning: true } }, false, {});
    assert.equal(listed.reasons, true);
    assert.equal(listed.reasoning, undefined);
    const plain = modelOptionOf({ id: 'gpt-4o', kind: 'chat', raw: { id: 'gpt-4o' } }, true, {}, {});
    assert.equal(plain.reasons, undefined);
  });

  it('sets a level, keeps the other entries, and removes the entry for default', () => {
    const current = { 'gpt-5': 'low', o3: 'high' };
    assert.deepEqual(nextReasoningSetting(current, 'gpt-5', 'off'), { 'gpt-5': 'off', o3: 'high' });
    assert.deepEqual(nextReasoningSetting(current, 'o3', 'default'), { 'gpt-5': 'low' });
    assert.deepEqual(current, { 'gpt-5': 'low', o3: 'high' }, 'the stored value is not changed in place');
    assert.deepEqual(nextReasoningSetting(undefined, 'o1', 'medium'), { o1: 'medium' });
    assert.deepEqual(nextReasoningSetting(['junk'], 'o1', 'high'), { o1: 'high' });
    assert.deepEqual(nextReasoningSetting(undefined, 'o1', 'default'), {});
  });

  it('the host takes only a known level for a named model', () => {
    const ok = { type: 'setReasoning', requestId: 'r1', model: 'o3', level: 'medium' };
    assert.ok(chatGuard.toHost(ok).ok);
    assert.ok(!chatGuard.toHost({ ...ok, level: 'max' }).ok);
    assert.ok(!chatGuard.toHost({ ...ok, model: '' }).ok);
  });
});
