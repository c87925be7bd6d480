// A small OpenAI-style upstream (POST /v1/chat/completions, SSE chunks) for the real third-party gateway
// to forward to. What it answers is chosen by a marker in the last user message (`scenario:NAME`), because
// the gateway rewrites everything else (model, headers, body shape) on the way through.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenLocally } from '../support/httpServer';

export type Scenario = 'text' | 'multibyte' | 'tools' | 'status401' | 'status429' | 'status500' | 'cut' | 'slow';

export interface UpstreamRequest {
  scenario: Scenario | undefined;
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  /** Set when the socket closed before this upstream finished its reply (the client went away). */
  closedEarly: boolean;
  /** Set when the reply ended normally. */
  finished: boolean;
}

export interface Upstream {
  /** Root URL, e.g. http://127.0.0.1:PORT */
  url: string;
  /** Full chat-completions URL (what the gateway's provider config takes). */
  chatUrl: string;
  requests: UpstreamRequest[];
  close(): Promise<void>;
}

/** Text sent by the `text` scenario, in several chunks. */
export const TEXT_REPLY = 'Hello from the upstream. This is a plain answer.';
/** Multi-byte text: 2-, 3- and 4-byte UTF-8 characters, written so that chunk boundaries fall inside them. */
export const MULTIBYTE_REPLY = 'Grüße, 世界! 🚀🎉 Ça va? Καλημέρα — ✓';
/** The two tool calls of the `tools` scenario and the argument fragments, interleaved across both calls. */
export const TOOL_CALLS = [
  { id: 'call_weather_1', name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } },
  { id: 'call_time_2', name: 'get_time', args: { zone: 'Europe/Paris' } },
] as const;
/** Token counts the `tools` scenario reports. */
export const TOOLS_USAGE = { prompt_tokens: 31, completion_tokens: 17, total_tokens: 48 };
/** Text streamed by the `cut` scenario before the upstream socket is destroyed. */
export const CUT_PREFIX = 'This answer will be cut';
/** Text streamed by the `slow` scenario at first (the rest trickles for a long time). */
export const SLOW_PREFIX = 'Slow start';

const SCENARIOS: readonly Scenario[] = [
  'text',
  'multibyte',
  'tools',
  'status401',
  'status429',
  'status500',
  'cut',
  'slow',
];

/** The last user message's text, whether it came as a string or as content parts. */
function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: string; content?: unknown }>) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content))
      return m.content.map((p: { text?: unknown }) => (typeof p.text === 'string' ? p.text : '')).join(' ');
  }
  return '';
}

function scenarioOf(body: Record<string, unknown>): Scenario | undefined {
  const m = /scenario:(\w+)/.exec(lastUserText(body));
  return m && (SCENARIOS as readonly string[]).includes(m[1]) ? (m[1] as Scenario) : undefined;
}

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function chunk(
  model: string,
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-upstream-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  })}\n\n`;
}

function usageChunk(model: string, prompt: number, completion: number): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-upstream-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  })}\n\n`;
}

/** Writes and waits until the bytes are handed to the socket, so separate writes become separate TCP segments more often. */
async function write(res: ServerResponse, data: string | Buffer): Promise<void> {
  if (res.destroyed) return;
  await new Promise<void>((resolve) => res.write(data, () => resolve()));
  await delay(2);
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message, type, param: null, code } }));
}

async function handle(req: IncomingMessage, res: ServerResponse, record: UpstreamRequest): Promise<void> {
  const model = String(record.body.model ?? 'upstream-model');
  switch (record.scenario) {
    case 'status401':
      return sendError(
        res,
        401,
        'Incorrect API key provided: sk-up***. You can find your API key at the provider console.',
        'invalid_request_error',
        'invalid_api_key',
      );
    case 'status429':
      return sendError(
        res,
        429,
        'Rate limit reached for requests on this organization. Please try again in 2s.',
        'requests',
        'rate_limit_exceeded',
        { 'retry-after': '2' },
      );
    case 'status500':
      return sendError(res, 500, 'The upstream model crashed while generating.', 'server_error', 'internal_error');
    default:
      break;
  }
  if (record.body.stream !== true && record.scenario !== 'cut') {
    // Non-streaming: one chat.completion object.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-upstream-2',
        object: 'chat.completion',
        created: 1_700_000_000,
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: record.scenario === 'multibyte' ? MULTIBYTE_REPLY : TEXT_REPLY },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
      }),
    );
    record.finished = true;
    return;
  }
  res.writeHead(200, {
    'content-type': record.body.stream === true ? 'text/event-stream' : 'application/json',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  if (record.body.stream !== true) {
    // Non-streaming `cut`: half a JSON body, then the socket dies.
    await write(
      res,
      '{"id":"chatcmpl-upstream-3","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"This answer',
    );
    await delay(20);
    req.socket.destroy();
    return;
  }
  await write(res, chunk(model, { role: 'assistant', content: '' }));
  switch (record.scenario) {
    case 'multibyte': {
      // Split the UTF-8 bytes at every third byte: most boundaries fall inside a character, even inside the JSON line.
      const line = Buffer.from(chunk(model, { content: MULTIBYTE_REPLY }), 'utf8');
      for (let i = 0; i < line.length; i += 3) await write(res, line.subarray(i, i + 3));
      break;
    }
    case 'tools': {
      const [a, b] = TOOL_CALLS;
      const aArgs = JSON.stringify(a.args);
      const bArgs = JSON.stringify(b.args);
      const tc = (index: number, fn: Record<string, unknown>, head?: { id: string }): Record<string, unknown> => ({
        tool_calls: [{ index, ...(head ? { id: head.id, type: 'function' } : {}), function: fn }],
      });
      await write(res, chunk(model, { content: 'Let me check.' }));
      await write(res, chunk(model, tc(0, { name: a.name, arguments: '' }, { id: a.id })));
      await write(res, chunk(model, tc(0, { arguments: aArgs.slice(0, 9) })));
      await write(res, chunk(model, tc(1, { name: b.name, arguments: '' }, { id: b.id })));
      await write(res, chunk(model, tc(1, { arguments: bArgs.slice(0, 6) })));
      // A fragment of call 0 after call 1 started: the interleaving real providers produce for parallel calls.
      await write(res, chunk(model, tc(0, { arguments: aArgs.slice(9) })));
      await write(res, chunk(model, tc(1, { arguments: bArgs.slice(6) })));
      // Usage in the finishing chunk (as several providers send it), so the gateway has it when it closes the message.
      await write(res, chunk(model, {}, 'tool_calls', { usage: TOOLS_USAGE }));
      await write(res, 'data: [DONE]\n\n');
      res.end();
      record.finished = true;
      return;
    }
    case 'cut':
      for (const piece of ['This ', 'answer ', 'will ', 'be ', 'cut'])
        await write(res, chunk(model, { content: piece }));
      await delay(20);
      // No finish_reason, no [DONE]: the upstream dies mid-answer.
      req.socket.destroy();
      return;
    case 'slow':
      await write(res, chunk(model, { content: SLOW_PREFIX }));
      for (let i = 0; i < 600 && !res.destroyed && !record.closedEarly; i++) {
        await delay(50);
        await write(res, chunk(model, { content: '.' }));
      }
      if (!res.destroyed) res.end();
      return;
    default: {
      const pieces = TEXT_REPLY.match(/.{1,7}/g) ?? [];
      for (const piece of pieces) await write(res, chunk(model, { content: piece }));
      break;
    }
  }
  if (record.scenario === 'multibyte') {
    // The other habit: a separate usage-only chunk (choices: []) after the finishing one.
    await write(res, chunk(model, {}, 'stop'));
    await write(res, usageChunk(model, 12, 9));
  } else {
    await write(
      res,
      chunk(model, {}, 'stop', { usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 } }),
    );
  }
  await write(res, 'data: [DONE]\n\n');
  res.end();
  record.finished = true;
}

export async function startUpstream(): Promise<Upstream> {
  const requests: UpstreamRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/chat/completions')) {
        sendError(res, 404, `no route ${req.method} ${req.url}`, 'invalid_request_error', 'not_found');
        return;
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        sendError(res, 400, 'body is not JSON', 'invalid_request_error', 'bad_json');
        return;
      }
      const record: UpstreamRequest = {
        scenario: scenarioOf(body),
        body,
        headers: req.headers,
        closedEarly: false,
        finished: false,
      };
      requests.push(record);
      // 'close' on the response before it finished: the peer (the gateway) dropped the connection.
      res.on('close', () => {
        if (!res.writableFinished) record.closedEarly = true;
      });
      handle(req, res, record).catch(() => res.destroy());
    });
  });
  const { url, close } = await listenLocally(server);
  return { url, chatUrl: `${url}/v1/chat/completions`, requests, close };
}
