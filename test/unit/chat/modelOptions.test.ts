// What the model picker shows of each model (issue 35 item 14): the list's window and prices where it says them,
// the user's price table first, nothing invented where the list is silent.
import { strict as assert } from 'node:assert';
import { modelOptionOf } from '../../../src/chat/composer/modelOptions';

describe('model picker options', () => {
  it('takes the input limit (LiteLLM), else the whole window (OpenRouter), and the gateway prices per 1M', () => {
    assert.deepEqual(
      modelOptionOf({ id: 'a', kind: 'chat', raw: { id: 'a', model_info: { max_input_tokens: 200_000 } } }, true, {}),
      { id: 'a', vision: true, kind: 'chat', window: 200_000 },
    );
    assert.deepEqual(
      modelOptionOf(
        {
          id: 'b',
          kind: 'chat',
          raw: { id: 'b', context_length: 128_000, pricing: { prompt: '0.000003', completion: '0.000015' } },
        },
        undefined,
        {},
      ),
      { id: 'b', vision: undefined, kind: 'chat', window: 128_000, price: { input: 3, output: 15 } },
    );
  });

  it("the user's prices win; a silent list gives no window and no price (not the 200,000 default)", () => {
    const raw = { id: 'c', pricing: { prompt: '0.000003', completion: '0.000015' } };
    assert.deepEqual(modelOptionOf({ id: 'c', kind: 'chat', raw }, false, { c: { input: 1, output: 2 } }).price, {
      input: 1,
      output: 2,
    });
    const silent = modelOptionOf({ id: 'd', kind: 'chat', raw: { id: 'd', context_length: 'huge' } }, false, {});
    assert.equal(silent.window, undefined);
    assert.equal(silent.price, undefined);
  });
});
