// A tiny scripted Messages-API server on 127.0.0.1 for agent tests: each POST /v1/messages is answered by a
// script that reads the request it received (so replies can depend on the tool_results sent back).
import type * as http from 'node:http';
import { createGatewayClient } from '../../../src/gateway';
import type { GatewayClient } from '../../../src/gateway/types';
import { startServer, type TestServer } from '../gateway/server';

export type ScriptBlock =
  | { type: 'text'; text: string }
  /** `input` as an object is sent as JSON fragments; as a string it is sent verbatim (e.g. broken JSON). */
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> | string };

export interface ScriptUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export type Reply =
  | { kind: 'message'; blocks: ScriptBlock[]; stopReason?: string; usage?: ScriptUsage; interleave?: boolean }
  | { kind: 'status'; status: number; body: unknown; headers?: Record<string, string> }
  /** Sends the first `events` events of the message, then drops the connection. */
  | { kind: 'cut'; blocks: ScriptBlock[]; events: number }
  /** Sends the first `events` events, then keeps the connection open without a word. */
  | { kind: 'hang'; blocks: ScriptBlock[]; events: number };

export interface AgentRequest {
  model: string;
  max_tokens: number;
  system?: unknown;
  tools?: Array<Record<string, unknown>>;
  messages: Array<{ role: string; content: string | Array<Record<string, unknown>> }>;
  stream?: boolean;
}

export type Script = (request: AgentRequest, n: number) => Reply | Promise<Reply>;

export interface ScriptedGateway {
  server: TestServer;
  client: GatewayClient;
  /** Parsed bodies of the POST /v1/messages requests, in arrival order. */
  bodies: AgentRequest[];
  /** Most requests in flight at the same time. */
  maxInFlight(): number;
  close(): Promise<void>;
}

export async function startScriptedGateway(
  script: Script,
  clientOptions: { timeoutMs?: number } = {},
): Promise<ScriptedGateway> {
  const bodies: AgentRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = await startServer(async (_req, res, body) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const request = JSON.parse(body.toString('utf8')) as AgentRequest;
    bodies.push(request);
    await answer(res, await script(request, bodies.length));
  });
  const client = createGatewayClient({
    baseUrl: server.url,
    apiKey: 'test-key',
    maxRetries: 0,
    timeoutMs: clientOptions.timeoutMs,
  });
  return { server, client, bodies, maxInFlight: () => maxInFlight, close: () => server.close() };
}

async function answer(res: http.ServerResponse, reply: Reply): Promise<void> {
  if (reply.kind === 'status') {
    const text = JSON.stringify(reply.body);
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(text);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const events = messageEvents(reply);
  const limit = reply.kind === 'message' ? events.length : reply.events;
  for (const ev of events.slice(0, limit)) {
    res.write(`event: ${String(ev.type)}\ndata: ${JSON.stringify(ev)}\n\n`);
    // One event per turn of the event loop: the client sees them as separate chunks.
    await new Promise((r) => setImmediate(r));
  }
  if (reply.kind === 'message') res.end();
  else if (reply.kind === 'cut') res.destroy();
}

/** The SSE events of a reply: message_start, blocks (tool inputs in fragments), message_delta, message_stop. */
export function messageEvents(reply: Exclude<Reply, { kind: 'status' }>): Array<Record<string, unknown>> {
  const usage = reply.kind === 'message' ? (reply.usage ?? {}) : {};
  const events: Array<Record<string, unknown>> = [
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'agent-model',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input_tokens ?? 10,
          output_tokens: 1,
          cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
          cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
        },
      },
    },
  ];
  const starts: Array<Record<string, unknown>> = [];
  const deltas: Array<Array<Record<string, unknown>>> = [];
  reply.blocks.forEach((b, index) => {
    if (b.type === 'text') {
      starts.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      deltas.push(
        fragments(b.text, 5).map((text) => ({
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text },
        })),
      );
    } else {
      starts.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
      });
      const json = typeof b.input === 'string' ? b.input : JSON.stringify(b.input);
      deltas.push(
        fragments(json, 4).map((partial_json) => ({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json },
        })),
      );
    }
  });
  const stops = reply.blocks.map((_b, index) => ({ type: 'content_block_stop', index }));
  if (reply.kind === 'message' && reply.interleave) {
    // All blocks open, their fragments round-robin, then all close (seen from real gateways).
    events.push(...starts);
    for (let i = 0; deltas.some((d) => i < d.length); i++) for (const d of deltas) if (i < d.length) events.push(d[i]);
    events.push(...stops);
  } else {
    reply.blocks.forEach((_b, i) => events.push(starts[i], ...deltas[i], stops[i]));
  }
  const stopReason =
    reply.kind === 'message'
      ? (reply.stopReason ?? (reply.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'))
      : 'end_turn';
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens ?? 5 },
  });
  events.push({ type: 'message_stop' });
  return events;
}

function fragments(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

/** The tool_result blocks of the request's last message (what the loop sent back). */
export function lastToolResults(request: AgentRequest): Array<Record<string, unknown>> {
  const last = request.messages[request.messages.length - 1];
  return typeof last.content === 'string' ? [] : last.content.filter((b) => b.type === 'tool_result');
}

export function text(t: string): ScriptBlock {
  return { type: 'text', text: t };
}

export function toolUse(id: string, name: string, input: Record<string, unknown> | string): ScriptBlock {
  return { type: 'tool_use', id, name, input };
}

/**
 * For a suite whose tests each start one scripted gateway: returns the start function to call in a test, and closes
 * the gateway it started after that test.
 */
export function scriptedGatewayPerTest(): typeof startScriptedGateway {
  let current: ScriptedGateway | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (script, clientOptions) => (current = await startScriptedGateway(script, clientOptions));
}
