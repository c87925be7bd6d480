// An agent step after a tool that ran longer than the gateway keeps an idle connection (docs/gateway-client.md
// #stale-connections). The server keeps idle connections 300 ms and says nothing about it (no Keep-Alive
// header, like uvicorn). Its idle timer "fires" as the next request arrives (on a network, the request is in
// flight when the server gives up on the connection): the connection is reset under it. The tool blocks the
// event loop (as the synchronous `npm test` of agentPlan.test.ts does), so no client timer can retire the
// socket first. That step used to be written on the stale socket: ECONNRESET, outcome unknown, the turn lost.
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { runAgentTurn, type Tool } from '../../../src/agent';
import { createGatewayClient, type DialectSource } from '../../../src/gateway';
import { IDLE_WITHOUT_HINT_MS } from '../../../src/gateway/freshConnections';
import { messageEvents } from './scriptedGateway';
import { WS } from './fakeTools';
import { listenLocally } from '../../support/httpServer';

const SERVER_IDLE_MS = 300;

interface IdleClosingServer {
  url: string;
  /** Billable requests received, by route. */
  posts: string[];
  connections(): number;
  close(): Promise<void>;
}

/** Answers step 1 with a call of `slow_tool`, step 2 with text; resets a connection idle for over 300 ms. */
async function startIdleClosingServer(): Promise<IdleClosingServer> {
  const posts: string[] = [];
  let connections = 0;
  const idleSince = new WeakMap<Socket, number>();
  const server = http.createServer((req, res) => {
    if (req.socket.destroyed) return; // arrived on a connection the server had given up on: never processed
    res.on('finish', () => idleSince.set(req.socket, Date.now()));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push(`${req.method} ${req.url}`);
      const step = posts.length;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(req.url === '/v1/chat/completions' ? chatReply(step) : messagesReply(step));
    });
  });
  server.keepAliveTimeout = 0; // no Keep-Alive hint; the idle timeout below is the server's own secret
  server.on('connection', (socket: Socket) => {
    connections++;
    socket.prependListener('data', () => {
      const since = idleSince.get(socket);
      if (since !== undefined && Date.now() - since > SERVER_IDLE_MS) socket.resetAndDestroy();
    });
  });
  const { url, close } = await listenLocally(server);
  return { url, posts, connections: () => connections, close };
}

function messagesReply(step: number): string {
  const blocks =
    step === 1
      ? [{ type: 'tool_use' as const, id: 'toolu_1', name: 'slow_tool', input: {} }]
      : [{ type: 'text' as const, text: 'Done.' }];
  const events = messageEvents({ kind: 'message', blocks, stopReason: step === 1 ? 'tool_use' : 'end_turn' });
  return events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

function chatReply(step: number): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const body =
    step === 1
      ? chunk({
          role: 'assistant',
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'slow_tool', arguments: '{}' } }],
        }) + chunk({}, 'tool_calls')
      : chunk({ role: 'assistant', content: 'Done.' }) + chunk({}, 'stop');
  return body + 'data: [DONE]\n\n';
}

/** Blocks the event loop like a synchronous child process (execFileSync) does. */
function blockFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const slowTool: Tool<never> = {
  name: 'slow_tool',
  description: 'Runs longer than the server keeps an idle connection',
  approvalClass: 'read',
  inputSchema: { type: 'object', properties: {} },
  target: () => ({ paths: [WS] }),
  invoke: async () => {
    // Some asynchronous work first (the last answer's connection goes back to the pool), then a synchronous
    // child process: longer than the server's secret idle timeout and than the client's default for servers without a hint.
    await new Promise((resolve) => setTimeout(resolve, 20));
    blockFor(IDLE_WITHOUT_HINT_MS + 500);
    return { content: 'ran for a while' };
  },
};

const chatOnly: DialectSource = { knowledge: () => ({ override: 'chat-completions' }), learned: () => undefined };

for (const dialect of ['messages', 'chat-completions'] as const) {
  describe(`agent step after a long tool, server closes idle connections without a hint (${dialect})`, function () {
    this.timeout(30_000);
    let server: IdleClosingServer;
    beforeEach(async () => (server = await startIdleClosingServer()));
    afterEach(() => server.close());

    it('the next billable step goes out on a fresh connection: it completes and is sent exactly once', async () => {
      const client = createGatewayClient({
        baseUrl: server.url,
        apiKey: 'test-key',
        maxRetries: 0,
        ...(dialect === 'chat-completions' ? { dialects: chatOnly } : {}),
      });
      const result = await runAgentTurn({
        client,
        model: 'agent-model',
        maxTokens: 100,
        tools: [slowTool],
        policy: { workspaceFolders: [WS] },
        messages: [{ role: 'user', content: 'go' }],
        approve: async () => ({ approved: true }),
      });
      assert.equal(result.reason, 'end_turn', result.message);
      const route = dialect === 'messages' ? 'POST /v1/messages' : 'POST /v1/chat/completions';
      assert.deepEqual(server.posts, [route, route], 'one billable request per step');
      assert.equal(server.connections(), 2, 'the step after the tool opened a new connection');
    });
  });
}
