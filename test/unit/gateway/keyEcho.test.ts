// A gateway or proxy that echoes the key (issue 32): in `request-id`, `x-request-id` or a body's `request_id`, in a
// 400, a 429 and a mid-stream error, verbatim, base64, URL-encoded or masked. The GatewayError, the support record,
// Copy Support Info's text, the log and the chat's error card hold no key, and show the request id as redacted
// (not dropped). The keys here do not look like keys (no sk-/mg- prefix): only knowing them removes them.
import * as assert from 'node:assert/strict';
import { createGatewayClient, type GatewayError, type SupportRecord } from '../../../src/gateway';
import { adviseOnError } from '../../../src/gateway/errors/advice';
import { toErrorCard } from '../../../src/chat/session/errorCard';
import { formatSupportInfo, SupportRing } from '../../../src/platform/supportLog';
import { REDACTED } from '../../../src/shared/secretRedaction';
import { json, startServer, type TestServer } from './server';
import { MESSAGE_REQUEST } from './streamHelpers';
import { failure } from '../../support/failure';

/** The active key and another stored key: plain-looking values no pattern would catch. */
const KEY = 'Zq9plainKEY4d8e2f0a77c31b';
const OTHER = 'Wx7otherSTORED9e1c5b3a2d';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Seen {
  error: GatewayError;
  records: SupportRecord[];
  log: string[];
}

async function call(status: number, headers: Record<string, string>, body: unknown): Promise<Seen> {
  server = await startServer((_req, res) => json(res, status, body, headers));
  const records: SupportRecord[] = [];
  const log: string[] = [];
  const put = (m: string): void => void log.push(m);
  const client = createGatewayClient({
    baseUrl: server.url,
    apiKey: KEY,
    secrets: () => [OTHER],
    maxRetries: 0,
    onSupportRecord: (r) => records.push(r),
    logger: { debug: put, info: put, warn: put, error: put },
  });
  const error = await failure(client.streamMessage(MESSAGE_REQUEST).finalMessage());
  return { error, records, log };
}

/** Everything a user or support could see of one failure: error, card, support records and text, log. */
function everything(seen: Seen): string {
  const { error } = seen;
  const card = toErrorCard(error, (e) => adviseOnError(e, { baseUrl: server?.url, surface: 'chat' }));
  const ring = new SupportRing(10);
  for (const r of seen.records) ring.add(r);
  ring.add(error.supportRecord());
  return [
    JSON.stringify({ ...error, message: error.message }),
    JSON.stringify(card),
    `${card.title} ${card.detail}`,
    formatSupportInfo(ring.recent()),
    seen.log.join('\n'),
  ].join('\n');
}

function assertNoKey(text: string, ...secrets: string[]): void {
  for (const secret of secrets) {
    assert.ok(!text.includes(secret), `a secret leaked:\n${text}`);
    assert.ok(!text.includes(secret.slice(4, 16)), `part of a secret leaked:\n${text}`);
  }
}

describe('gateway: a key echoed in a request id is redacted everywhere, shown as redacted', () => {
  for (const status of [400, 429]) {
    for (const where of ['request-id', 'x-request-id', 'body request_id'] as const) {
      it(`HTTP ${status}, the key in ${where}`, async () => {
        const headers: Record<string, string> = status === 429 ? { 'retry-after': '120' } : {};
        if (where !== 'body request_id') headers[where] = KEY;
        const body = {
          type: 'error',
          error: { type: status === 429 ? 'rate_limit_error' : 'invalid_request_error', message: `bad key ${KEY}` },
          ...(where === 'body request_id' ? { request_id: KEY } : {}),
        };
        const seen = await call(status, headers, body);
        assert.equal(seen.error.status, status);
        assert.equal(seen.error.requestId, REDACTED, 'the id is kept, as redacted');
        const text = everything(seen);
        assertNoKey(text, KEY);
        const card = toErrorCard(seen.error, (e) => adviseOnError(e, { surface: 'chat' }));
        assert.equal(card.requestId, REDACTED);
        assert.match(card.detail, /Request ID: \[redacted\]/);
        if (where !== 'body request_id') {
          assert.equal(seen.records[0].requestId, REDACTED, 'the support record says there was an id');
          assert.match(formatSupportInfo(seen.records), /\t\[redacted\]$/m);
        }
      });
    }
  }

  it('another stored key, base64, URL-encoded and masked echoes are redacted too', async () => {
    const weird = `${KEY}/+=`;
    const basic = Buffer.from(`user:${OTHER}`).toString('base64');
    const seen = await call(
      400,
      {
        'request-id': OTHER,
        'x-request-id': 'unused',
      },
      {
        type: 'error',
        error: {
          type: `code-${Buffer.from(KEY).toString('base64')}`,
          message: `echo ${encodeURIComponent(weird)} basic ${basic} masked ${KEY.slice(0, 6)}…${KEY.slice(-4)} url ${Buffer.from(KEY).toString('base64url')}`,
        },
      },
    );
    assert.equal(seen.error.requestId, REDACTED);
    const text = everything(seen);
    assertNoKey(text, KEY, OTHER);
    for (const form of [
      Buffer.from(KEY).toString('base64').replace(/=+$/, ''),
      Buffer.from(KEY).toString('base64url'),
      encodeURIComponent(weird),
      basic,
      `${KEY.slice(0, 6)}…${KEY.slice(-4)}`,
    ])
      assert.ok(!text.includes(form), `${form} leaked:\n${text}`);
  });

  it('a mid-stream error: the key in request-id and in the event (type, message, request_id)', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': KEY, 'x-request-id': KEY });
      res.write(
        'event: message_start\ndata: {"type":"message_start","message":{"id":"m1","type":"message","role":"assistant","model":"claude-demo-sonnet","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":0}}}\n\n',
      );
      const event = {
        type: 'error',
        error: { type: `overloaded ${KEY}`, message: `upstream said ${KEY}` },
        request_id: KEY,
      };
      res.end(`event: error\ndata: ${JSON.stringify(event)}\n\n`);
    });
    const records: SupportRecord[] = [];
    const log: string[] = [];
    const put = (m: string): void => void log.push(m);
    const error = await failure(
      createGatewayClient({
        baseUrl: server.url,
        apiKey: KEY,
        onSupportRecord: (r) => records.push(r),
        logger: { debug: put, info: put, warn: put, error: put },
      })
        .streamMessage(MESSAGE_REQUEST)
        .finalMessage(),
    );
    assert.equal(error.requestId, REDACTED);
    assert.equal(records[0]?.requestId, REDACTED);
    assertNoKey(everything({ error, records, log }), KEY);
  });

  it('an image task that failed: its reason and request id echo the key', async () => {
    server = await startServer((_req, res) =>
      json(res, 200, { id: 't1', status: 'failed', fail_reason: `bad key ${KEY}` }, { 'x-request-id': KEY }),
    );
    const task = await createGatewayClient({ baseUrl: server.url, apiKey: KEY }).getImageTask('t1');
    assert.equal(task.requestId, REDACTED);
    assert.match(task.error ?? '', /bad key \[redacted\]/);
    assertNoKey(JSON.stringify({ ...task, raw: undefined }), KEY);
  });

  it('an ordinary request id is kept as it is', async () => {
    const seen = await call(400, { 'request-id': 'req_01HXYZ' }, { error: { message: 'bad' } });
    assert.equal(seen.error.requestId, 'req_01HXYZ');
    assert.equal(seen.records[0].requestId, 'req_01HXYZ');
  });
});
