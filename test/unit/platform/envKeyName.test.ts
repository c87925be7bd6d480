// The name a key imported from MODEL_GATEWAY_API_KEY gets: one a person understands (src/keys/fingerprint.ts).
import { strict as assert } from 'node:assert';
import { envKeyName } from '../../../src/keys/fingerprint';

describe('keys: the name of the key imported from the environment', () => {
  it('takes MODEL_GATEWAY_API_KEY_NAME ("demo (emulator)" under npm start), else says where the key came from', () => {
    assert.equal(envKeyName({ MODEL_GATEWAY_API_KEY_NAME: ' demo (emulator) ' }), 'demo (emulator)');
    assert.equal(envKeyName({}), 'MODEL_GATEWAY_API_KEY');
    // A name a key could not have (empty, too long, control characters) falls back to the variable's name.
    assert.equal(envKeyName({ MODEL_GATEWAY_API_KEY_NAME: '' }), 'MODEL_GATEWAY_API_KEY');
    assert.equal(envKeyName({ MODEL_GATEWAY_API_KEY_NAME: 'x'.repeat(65) }), 'MODEL_GATEWAY_API_KEY');
    assert.equal(envKeyName({ MODEL_GATEWAY_API_KEY_NAME: 'a\nb' }), 'MODEL_GATEWAY_API_KEY');
  });
});
