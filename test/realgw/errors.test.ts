// Failures through the real third-party gateway (@musistudio/llms): its fastify 404 for a route it does
// not have, the provider errors it forwards (401/429/500 with its own wrapper and a stack trace in the
// message), a stream the upstream cuts mid-way, and its "terminated" 500. The client must turn each into
// the right typed error with a specific message, never a bare reason phrase or a stack trace.
import assert from 'node:assert/strict';
import { adviseOnError, type GatewayError } from '../../src/gateway';
import { clientFor, request } from './client';
import { useRealGateway } from './gateway';
import { CUT_PREFIX } from './upstream';
import { failure } from '../support/failure';

/** A message a user can act on: not a bare reason phrase, no stack frames or server file paths. */
function assertSpecific(error: GatewayError, mustContain: string): void {
  for (const text of [error.message, error.serverMessage ?? '']) {
    assert.doesNotMatch(
      text,
      /\n\s*at |\bat (async )?\w+ \(|node_modules|server\.cjs|processTicksAndRejections/,
      `no stack trace in: ${text}`,
    );
  }
  assert.match(error.message, new RegExp(mustContain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  assert.doesNotMatch(error.serverMessage ?? '', /^(Not Found|Internal Server Error|Unauthorized|Too Many Requests)$/i);
}

describe('real gateway (@musistudio/llms): errors', function () {
  this.timeout(30_000);
  const gw = useRealGateway();

  it('GET /v1/models: the router has no model list; its fastify 404 is a not_found error that says which route is missing', async () => {
    const error = await failure(clientFor(gw().url).listModels());
    assert.equal(error.kind, 'not_found');
    assert.equal(error.status, 404);
    // {"message":"Route GET:/v1/models not found","error":"Not Found","statusCode":404}: the message, not "Not Found".
    assert.equal(error.serverMessage, 'Route GET:/v1/models not found');
    assertSpecific(error, 'Route GET:/v1/models not found');
    // A 404 on the list only must not be blamed on the key.
    assert.ok(!adviseOnError(error, { surface: 'models', baseUrl: gw().url }).actions.includes('replaceKey'));
  });

  it("upstream 401: an auth error that carries the provider's words and is marked as coming from upstream (not the user's key)", async () => {
    const error = await failure(clientFor(gw().url).streamMessage(request('status401')).finalMessage());
    assert.equal(error.kind, 'auth');
    assert.equal(error.status, 401);
    assertSpecific(error, 'Incorrect API key provided');
    assert.ok(error.upstream, 'the body says "Error from provider(...)": the gateway\'s own provider key was rejected');
    const advice = adviseOnError(error, { surface: 'chat' });
    assert.ok(!advice.actions.includes('replaceKey'), `replacing the user's key cannot help: ${advice.title}`);
    // Not replayed: a 401 is final.
    assert.equal(gw().upstream.requests.length, 1);
  });

  it("upstream 429: rate_limited with the provider's message; retried once (max 1 retry) then returned", async () => {
    const error = await failure(clientFor(gw().url).streamMessage(request('status429')).finalMessage());
    assert.equal(error.kind, 'rate_limited');
    assert.equal(error.status, 429);
    assertSpecific(error, 'Rate limit reached');
    // A 429 was not processed, so one retry is allowed; the gateway forwards no Retry-After.
    assert.equal(gw().upstream.requests.length, 2);
  });

  it("upstream 500 on a POST: a server error with the provider's message, never replayed", async () => {
    const error = await failure(clientFor(gw().url).createMessage(request('status500')));
    assert.equal(error.kind, 'server');
    assert.equal(error.status, 500);
    assertSpecific(error, 'The upstream model crashed while generating');
    assert.equal(
      gw().upstream.requests.length,
      1,
      'a billable POST that failed with 5xx is not replayed automatically',
    );
    assert.ok(adviseOnError(error, { surface: 'chat' }).actions.includes('retry'));
  });

  it('a stream the upstream cuts mid-way: partial text kept, marked as cut (dropped), outcome unknown, advice says so', async () => {
    const error = await failure(clientFor(gw().url).streamMessage(request('cut')).finalMessage());
    const text = (error.partial?.content[0] as { text?: string } | undefined)?.text;
    assert.equal(text, CUT_PREFIX, 'every character that arrived is kept');
    assert.ok(error.kind === 'network' || error.kind === 'protocol', `kind ${error.kind}`);
    assert.equal(error.outcomeUnknown, true);
    assert.deepEqual(error.cut && { how: error.cut.how, characters: error.cut.characters }, {
      how: 'dropped',
      characters: CUT_PREFIX.length,
    });
    const advice = adviseOnError(error, { surface: 'chat', baseUrl: gw().url });
    assert.match(advice.title, /cut off/);
    assert.ok(
      !advice.actions.includes('replaceKey') && !advice.actions.includes('openBaseUrlSetting'),
      advice.actions.join(','),
    );
    assert.equal(gw().upstream.requests.length, 1, 'never retried once content arrived');
  });

  it('a non-streaming reply the upstream cuts: the gateway\'s "terminated" 500 is a server error saying so, without its stack', async () => {
    const error = await failure(clientFor(gw().url).createMessage(request('cut')));
    assert.equal(error.kind, 'server');
    assert.equal(error.status, 500);
    assertSpecific(error, 'terminated');
    assert.equal(gw().upstream.requests.length, 1);
  });

  it("an unknown provider in the model id: a not_found error with the gateway's own words", async () => {
    const error = await failure(
      clientFor(gw().url).createMessage({ ...request('text'), model: 'no-such-provider-model' }),
    );
    assert.equal(error.kind, 'not_found');
    assertSpecific(error, "Provider 'no-such-provider-model' not found");
    assert.equal(gw().upstream.requests.length, 0);
  });
});
