// Each fault switch, per key (setFaults / admin) and per request (x-emulator-fault header).

import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { DEMO, chatBody, imageHeaders, messagesHeaders, parseSse, post, useEmulator } from './helpers';
import { waitUntil } from '../../support/poll';

const fault = (f: Record<string, unknown>): Record<string, string> => ({ 'x-emulator-fault': JSON.stringify(f) });

describe('emulator: faults', () => {
  const emu = useEmulator();
  const streamBody = (text = 'fault test'): Record<string, unknown> => chatBody(text, { stream: true });

  it('delayMs: the reply comes, after the delay (no timing assertion beyond a lower bound)', async () => {
    const started = Date.now();
    const res = await post(emu(), '/v1/messages', chatBody('x'), { ...messagesHeaders(), ...fault({ delayMs: 150 }) });
    assert.equal(res.status, 200);
    assert.ok(Date.now() - started >= 140);
  });

  it('hang: no answer; the client abort is logged as aborted, billable counted', async () => {
    const ctrl = new AbortController();
    const pending = post(emu(), '/v1/messages', chatBody('x'), { ...messagesHeaders(), ...fault({ hang: true }) });
    void pending.catch(() => undefined);
    const abortable = fetch(`${emu().url}/v1/messages`, {
      method: 'POST',
      signal: ctrl.signal,
      headers: { ...messagesHeaders(), ...fault({ hang: true }) },
      body: JSON.stringify(chatBody('y')),
    });
    await waitUntil(() => emu().requests().length === 2, 'both requests logged');
    ctrl.abort();
    await assert.rejects(abortable);
    await waitUntil(
      () =>
        emu()
          .requests()
          .some((r) => r.aborted),
      'the abort',
    );
    assert.equal(emu().billableCount('messages'), 2);
    assert.equal(
      emu()
        .requests()
        .filter((r) => r.status === 0).length,
      2,
    );
  });

  it('dropAfterEvents: the socket closes mid-stream without message_stop', async () => {
    const res = await post(emu(), '/v1/messages', streamBody(), {
      ...messagesHeaders(),
      ...fault({ dropAfterEvents: 4 }),
    });
    assert.equal(res.status, 200);
    await assert.rejects(res.text(), /terminated|other side closed|aborted/i);
    await waitUntil(() => emu().requests()[0].status === 200 && emu().requests()[0].events === 4, 'the log entry');
    assert.notEqual(emu().requests()[0].aborted, true, 'a server-side drop is not a client abort');
  });

  it('errorAfterEvents: an error event (type configurable) then the stream ends', async () => {
    const res = await post(emu(), '/v1/messages', streamBody(), {
      ...messagesHeaders(),
      ...fault({ errorAfterEvents: 3, errorType: 'api_error' }),
    });
    const events = parseSse(await res.text());
    assert.equal(events.length, 4);
    assert.equal(events[3].event, 'error');
    assert.deepEqual((events[3].data as { error: { type: string } }).error.type, 'api_error');
    assert.ok(!events.some((e) => e.event === 'message_stop'));
  });

  it('noEventLines: ping and error come as bare data lines', async () => {
    const res = await post(emu(), '/v1/messages', streamBody(), {
      ...messagesHeaders(),
      ...fault({ noEventLines: true, errorAfterEvents: 5 }),
    });
    const events = parseSse(await res.text());
    const bare = events.filter((e) => e.event === '');
    assert.deepEqual(
      bare.map((e) => e.data.type),
      ['ping', 'error'],
    );
    assert.equal((bare[1].data as { error: { type: string } }).error.type, 'overloaded_error');
  });

  it('status + count per key: a 5xx burst of N, then normal service; billable counts every attempt', async () => {
    emu().setFaults(DEMO, { status: 503, count: 2, retryAfter: 2 });
    const first = await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders());
    assert.equal(first.status, 503);
    assert.equal(first.headers.get('retry-after'), '2');
    assert.equal(((await first.json()) as { error: { type: string } }).error.type, 'overloaded_error');
    assert.equal(
      (await post(emu(), '/v1/images/generations', { model: 'gpt-image-demo', prompt: 'p' }, imageHeaders())).status,
      503,
    );
    assert.equal((await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders())).status, 200);
    assert.equal(emu().billableCount(), 3);
    assert.equal(emu().billableCount('/v1/messages'), 2);
    assert.equal(emu().billableCount('POST /v1/messages'), 2);
    assert.equal(emu().billableCount('images.generations'), 1);
  });

  it('429 storm via header: Retry-After and retry-after-ms', async () => {
    const res = await post(emu(), '/v1/messages', chatBody('x'), {
      ...messagesHeaders(),
      ...fault({ status: 429, retryAfter: 7 }),
    });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '7');
    assert.equal(res.headers.get('retry-after-ms'), '7000');
  });

  it('htmlError: an HTML error page (502 by default) with a request id', async () => {
    const res = await post(emu(), '/v1/messages', chatBody('x'), {
      ...messagesHeaders(),
      ...fault({ htmlError: true }),
    });
    assert.equal(res.status, 502);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await res.text(), /<html>.*502 Bad Gateway/s);
    assert.ok(res.headers.get('request-id'));
  });

  it('tokensPerSecond: sets how many tokens go into each delta (0 = as fast as possible)', async () => {
    const deltas = async (tps: number): Promise<number> => {
      const res = await post(emu(), '/v1/messages', chatBody('x [[tokens=40]]', { stream: true }), {
        ...messagesHeaders(),
        ...fault({ tokensPerSecond: tps }),
      });
      const events = parseSse(await res.text());
      assert.equal(events.at(-1)?.event, 'message_stop');
      return events.filter((e) => e.event === 'content_block_delta').length;
    };
    assert.equal(await deltas(50), 40, 'one token per delta at 50/s');
    assert.equal(await deltas(0), 5, 'eight tokens per delta when unpaced');
  });

  it('chunkBytes: the body arrives in small pieces that split multi-byte characters, and still decodes', async () => {
    const pieces: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = request(
        `${emu().url}/v1/messages`,
        { method: 'POST', headers: { ...messagesHeaders(), ...fault({ chunkBytes: 5 }) } },
        (res) => {
          res.on('data', (c: Buffer) => pieces.push(c));
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(chatBody('🚀 split', { stream: true })));
    });
    assert.ok(pieces.length > 50);
    const text = Buffer.concat(pieces).toString('utf8');
    assert.ok(text.includes('🚀 split'));
    assert.equal(parseSse(text).at(-1)?.event, 'message_stop');
  });

  it('an x-emulator-fault header that is not JSON is a 400', async () => {
    const res = await post(emu(), '/v1/messages', chatBody('x'), { ...messagesHeaders(), 'x-emulator-fault': 'hang' });
    assert.equal(res.status, 400);
  });

  it('setFaults(key, null) clears the faults of the key', async () => {
    emu().setFaults(DEMO, { status: 500 });
    assert.equal((await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders())).status, 500);
    emu().setFaults(DEMO, null);
    assert.equal((await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders())).status, 200);
  });
});
