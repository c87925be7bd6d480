// Each error class of the emulator, produced by a real client call, turns into the guidance and the
// notification buttons the ErrorPresenter shows (advice from the gateway core, buttons from errorActions).
import { strict as assert } from 'node:assert';
import { adviseOnError, createGatewayClient, type AdviceSurface } from '../../../src/gateway';
import { actionButton } from '../../../src/platform/errorActions';
import { Commands } from '../../../src/shared/commands';
import { rejection } from '../../support/failure';
import { useEmulator } from '../../support/emulatorLifecycle';

describe('platform: error classes from the emulator → guidance and buttons', function () {
  this.timeout(20_000);
  const emulator = useEmulator();

  const client = (key: string, baseUrl = emulator().url) =>
    createGatewayClient({ baseUrl, apiKey: key, maxRetries: 0, timeoutMs: 5_000 });
  const present = async (call: Promise<unknown>, surface: AdviceSurface) => {
    const error = await rejection(call);
    const advice = adviseOnError(error, { baseUrl: emulator().url, surface });
    const buttons = advice.actions.map(actionButton).filter((b) => b !== undefined);
    return {
      text: `${advice.title} ${advice.detail}`,
      buttons: buttons.map((b) => b.label),
      commands: buttons.map((b) => b.command),
    };
  };

  it('revoked key (401): Replace Key runs Set API Key, and the words say to replace it in the console', async () => {
    const shown = await present(client('mg-revoked-0004').listModels(), 'models');
    assert.match(shown.text, /401/);
    assert.match(shown.text, /console/);
    assert.ok(!shown.text.includes('mg-revoked-0004'));
    assert.equal(shown.buttons[0], 'Replace Key');
    assert.equal(shown.commands[0], Commands.setApiKey);
  });

  it('low balance (403) on a billable call names the balance', async () => {
    const shown = await present(
      client('mg-low-balance-0003').createMessage({
        model: 'claude-demo-sonnet',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'hi' }],
      }),
      'chat',
    );
    assert.match(shown.text, /balance/i);
    assert.match(shown.text, /403/);
  });

  it('chat-only group calling an image route (403) names the route permission', async () => {
    const shown = await present(
      client('mg-chat-only-0002').generateImage({ model: 'gpt-image-demo', prompt: 'a cat', size: '1024x1024' }),
      'image',
    );
    assert.match(shown.text, /403/);
    assert.match(shown.text, /Image generation is not enabled for your key \(403\)/);
    assert.match(shown.text, /key group/);
    assert.ok(shown.buttons.length > 0);
  });

  it('wrong base URL (404) names the URL called and opens the base URL setting', async () => {
    const shown = await present(client('mg-demo-key-0001', `${emulator().url}/wrong`).listModels(), 'models');
    assert.match(shown.text, /404/);
    assert.ok(shown.text.includes(`${emulator().url}/v1/models`) || shown.text.includes('/wrong'), shown.text);
    assert.ok(shown.commands.includes(Commands.openSettings));
  });

  it('429 names Retry-After and offers no button that resends at once', async () => {
    emulator().setFaults('mg-demo-key-0001', { status: 429, count: 5, retryAfter: 120 });
    const shown = await present(client('mg-demo-key-0001').listModels(), 'models');
    assert.match(shown.text, /429/);
    assert.match(shown.text, /2 min/);
    assert.deepEqual(
      shown.commands.filter((c) => c === Commands.refreshModels),
      [],
    );
  });
});
