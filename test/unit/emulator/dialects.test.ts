// The client's stream and error behaviour over every gateway dialect of the emulator (new-api, one-api,
// sub2api, LiteLLM, a router without a model list, a gateway behind an HTML proxy page) and the
// emulator's own default: streams must assemble identically, every error status must become the right
// typed error with a specific message, and the router's missing model list must be told apart from a
// wrong base URL. Real sockets on 127.0.0.1; the dialect is chosen by emulator.json's "dialect".
import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import {
  createGatewayClient,
  forbiddenCause,
  type GatewayClient,
  type GatewayError,
  type Message,
  type MessagesRequest,
} from '../../../src/gateway';
import { defaultConfig, startEmulator, type Emulator } from '../../../src/emulator';
import { DIALECT_NAMES } from '../../../src/emulator/dialects';
import { DEMO, LOW_BALANCE, useEmulator } from './helpers';
import { failure } from '../../support/failure';

const PROFILES = ['default', ...DIALECT_NAMES] as const;
type Profile = (typeof PROFILES)[number];

const TOOLS = [
  {
    name: 'lookup',
    description: 'Looks a word up',
    input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
];
const TEXT_REQUEST: MessagesRequest = {
  model: 'claude-demo-sonnet',
  max_tokens: 4096,
  messages: [{ role: 'user', content: 'Dialect check: ünïcödé 世界 🚀' }],
};
const TOOL_REQUEST: MessagesRequest = {
  ...TEXT_REQUEST,
  messages: [{ role: 'user', content: 'Look this up [[tool]]' }],
  tools: TOOLS,
};

/** Status a dialect answers for an upstream failure of `status` (sub2api remaps them, see dialects/sub2api.ts). */
function answeredStatus(profile: Profile, status: number): number {
  if (profile !== 'sub2api') return status;
  if (status === 429) return 429;
  if (status === 529) return 503;
  return 502;
}

const REASON_PHRASES = new Set(Object.values(STATUS_CODES).map((p) => String(p).toLowerCase()));
/** "Not Found", "502 Bad Gateway", "404 page not found": words that say nothing the status did not. */
function isBareReason(text: string): boolean {
  const t = text
    .trim()
    .replace(/^\d{3}\s*/, '')
    .replace(/[.!\s]+$/, '')
    .toLowerCase();
  return t === '' || REASON_PHRASES.has(t) || t === 'page not found';
}

/** A message a user can act on: names the route and status, carries no bare reason phrase and no stack trace. */
function assertSpecific(error: GatewayError, status: number): void {
  assert.match(error.message, new RegExp(error.route.replace(/[/]/g, '\\/')), error.message);
  assert.match(error.message, new RegExp(`\\b${status}\\b`), error.message);
  if (error.serverMessage !== undefined) {
    assert.ok(!isBareReason(error.serverMessage), `serverMessage is a bare reason phrase: "${error.serverMessage}"`);
  }
  for (const text of [error.message, error.serverMessage ?? '']) {
    assert.doesNotMatch(text, /\n\s*at |\bat \w+ \(\/|node_modules|server\.cjs/, `stack trace in: ${text}`);
  }
}

const textOf = (m: Message | undefined): string =>
  (m?.content ?? [])
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('');
const toolsOf = (m: Message): Array<{ name: string; input: unknown }> =>
  m.content
    .filter((b) => b.type === 'tool_use')
    .map((b) => ({ name: (b as { name: string }).name, input: (b as { input: unknown }).input }));

describe('client over gateway dialects', function () {
  this.timeout(30_000);
  // What the emulator's own dialect assembles to: every profile must assemble to exactly the same.
  let reference: { text: Message; tool: Message };
  before(async () => {
    const emu = await startEmulator();
    try {
      const c = createGatewayClient({ baseUrl: emu.url, apiKey: DEMO, maxRetries: 0 });
      reference = {
        text: await c.streamMessage(TEXT_REQUEST).finalMessage(),
        tool: await c.streamMessage(TOOL_REQUEST).finalMessage(),
      };
    } finally {
      await emu.close();
    }
  });

  for (const profile of PROFILES) {
    describe(`dialect ${profile}`, () => {
      const emu: () => Emulator = useEmulator(() => ({
        ...defaultConfig(),
        ...(profile === 'default' ? {} : { dialect: profile }),
      }));
      // Portkey needs a header of the user's on every request: the whole suite runs with it.
      const headers = profile === 'portkey' ? { 'x-portkey-provider': 'openai' } : undefined;
      const client = (key = DEMO, baseUrl?: string): GatewayClient =>
        createGatewayClient({ baseUrl: baseUrl ?? emu().url, apiKey: key, maxRetries: 0, timeoutMs: 10_000, headers });
      afterEach(() => emu().setFaults(DEMO, null));

      it('a text stream assembles exactly as on the default gateway, and as the non-streamed reply', async () => {
        const streamed = await client().streamMessage(TEXT_REQUEST).finalMessage();
        assert.equal(textOf(streamed), textOf(reference.text));
        assert.equal(streamed.stop_reason, 'end_turn');
        assert.ok(streamed.usage.output_tokens > 0 && streamed.usage.input_tokens > 0, JSON.stringify(streamed.usage));
        const whole = await client().createMessage(TEXT_REQUEST);
        assert.equal(textOf(whole), textOf(reference.text));
      });

      it('a tool call assembles to the same name and input (late fragments included)', async () => {
        const streamed = await client().streamMessage(TOOL_REQUEST).finalMessage();
        assert.equal(streamed.stop_reason, 'tool_use');
        assert.deepEqual(toolsOf(streamed), toolsOf(reference.tool));
        assert.equal(typeof toolsOf(streamed)[0]?.input, 'object');
      });

      for (const status of [429, 500, 502, 503, 504, 529]) {
        it(`an upstream ${status} becomes the right typed error with a specific message`, async () => {
          emu().setFaults(DEMO, { status, retryAfter: 1 });
          const error = await failure(client().streamMessage(TEXT_REQUEST).finalMessage());
          const expected = answeredStatus(profile, status);
          assert.equal(error.status, expected);
          assert.equal(error.kind, expected === 429 ? 'rate_limited' : 'server');
          assertSpecific(error, expected);
          if (profile === 'html-proxy' && expected >= 502 && expected <= 504) {
            // The page came from the proxy in front of the gateway: say so, not just "Bad Gateway".
            assert.match(`${error.message} ${error.serverMessage ?? ''}`, /nginx|proxy|HTML|web page/i);
          }
        });
      }

      it('a wrong key is an auth error with a specific message, the key never shown, the request id kept', async () => {
        const wrong = 'mg-wrong-key-9999-zzzz';
        const error = await failure(client(wrong).streamMessage(TEXT_REQUEST).finalMessage());
        assert.equal(error.kind, 'auth');
        assert.equal(error.status, 401);
        assertSpecific(error, 401);
        assert.ok(!`${error.message} ${error.serverMessage}`.includes(wrong), 'the key is never repeated');
        // Support needs the request id: every dialect that sends one must have it captured.
        if (profile !== 'router') assert.ok(error.requestId, 'request id captured');
        if (profile === 'new-api' || profile === 'one-api')
          assert.ok(error.serverMessage?.includes(`(request id: ${error.requestId})`), error.serverMessage);
      });

      it('a key without balance is forbidden, and the cause (balance) is recognised', async () => {
        const error = await failure(client(LOW_BALANCE).createMessage(TEXT_REQUEST));
        assert.equal(error.kind, 'forbidden');
        assert.equal(error.status, 403);
        assertSpecific(error, 403);
        assert.equal(forbiddenCause(error), 'balance');
      });

      it('a wrong base URL is not_found with a specific message', async () => {
        const error = await failure(client(DEMO, `${emu().url}/wrong-prefix`).createMessage(TEXT_REQUEST));
        assert.equal(error.kind, 'not_found');
        assert.equal(error.status, 404);
        assertSpecific(error, 404);
      });

      if (profile === 'router') {
        it('no model list: GET /v1/models is a 404 naming the route, while the Messages route works (not a base-URL 404)', async () => {
          const c = client();
          const error = await failure(c.listModels());
          assert.equal(error.kind, 'not_found');
          assert.equal(error.route, 'GET /v1/models');
          assert.equal(error.serverMessage, 'Route GET:/v1/models not found');
          // The same base URL serves POST /v1/messages: the 404 is about the list, not the base URL...
          assert.equal(textOf(await c.createMessage(TEXT_REQUEST)), textOf(reference.text));
          // ...whereas a wrong base URL fails on both routes.
          const wrong = client(DEMO, `${emu().url}/wrong-prefix`);
          assert.equal((await failure(wrong.listModels())).kind, 'not_found');
          assert.equal((await failure(wrong.createMessage(TEXT_REQUEST))).kind, 'not_found');
        });
      } else {
        it('lists the models of the key', async () => {
          const ids = (await client().listModels()).map((m) => m.id);
          assert.ok(ids.includes('claude-demo-sonnet'), ids.join(','));
        });
      }

      it('an error event mid-stream is a server error carrying its type, partial text kept', async () => {
        emu().setFaults(DEMO, { errorAfterEvents: 6, errorType: 'overloaded_error' });
        const error = await failure(client().streamMessage(TEXT_REQUEST).finalMessage());
        assert.equal(error.kind, 'server', error.message);
        assert.match(`${error.serverCode ?? ''} ${error.serverMessage ?? ''}`, /overloaded/);
        assert.ok(textOf(error.partial).length > 0, 'partial text kept');
        assert.ok(textOf(reference.text).startsWith(textOf(error.partial)));
      });

      it('a dropped stream keeps the partial text and is marked as cut, outcome unknown', async () => {
        emu().setFaults(DEMO, { dropAfterEvents: 6 });
        const error = await failure(client().streamMessage(TEXT_REQUEST).finalMessage());
        assert.ok(textOf(error.partial).length > 0 && textOf(reference.text).startsWith(textOf(error.partial)));
        assert.equal(error.outcomeUnknown, true);
        // one-api (chat-completions only, reached through the fallback) ends even a failed read with [DONE].
        assert.equal(error.cut?.how, profile === 'one-api' ? 'ended' : 'dropped');
      });
    });
  }
});
