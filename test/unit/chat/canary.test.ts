// The property that holds issue 32's fixes together: a canary key planted in every source the extension reads —
// the environment (MODEL_GATEWAY_API_KEY), response headers, error bodies, files and command output — in the forms
// servers and programs echo (verbatim, base64, base64url, URL-encoded, masked) never appears in a request body the
// gateway receives, an agent event (the cards), the error card, a stored conversation file, the log or the support
// text. The parts are wired as src/chat/host/register.ts and src/services.ts wire them.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { runAgentTurn, type AgentEvent, type Tool } from '../../../src/agent';
import { createGatewayClient, type SupportRecord } from '../../../src/gateway';
import { adviseOnError } from '../../../src/gateway/errors/advice';
import { toErrorCard } from '../../../src/chat/session/errorCard';
import { redactingStorage } from '../../../src/chat/store/history';
import { takeEnvKey } from '../../../src/keys/fingerprint';
import { formatSupportInfo, SupportRing } from '../../../src/platform/supportLog';
import { API_KEY_ENV } from '../../../src/shared/commands';
import { redactDeep, SecretRegistry } from '../../../src/shared/secretRedaction';
import { goTurnOptions } from '../agent/turnOptions';
import { scriptedGatewayPerTest, toolUse } from '../agent/scriptedGateway';

/** A key with no recognisable prefix: only knowing it can remove it. */
function canary(): string {
  return `Cn${randomBytes(18).toString('base64').replace(/[+/=]/g, 'x')}`;
}

const FORMS: Record<string, (key: string) => string> = {
  verbatim: (k) => k,
  base64: (k) => Buffer.from(`user:${k}`).toString('base64'),
  base64url: (k) => Buffer.from(k).toString('base64url'),
  urlEncoded: (k) => encodeURIComponent(`${k}/=`),
  // ASCII: it travels in headers too (the … form is covered in test/unit/gateway/keyEcho.test.ts).
  masked: (k) => `${k.slice(0, 6)}****${k.slice(-4)}`,
};

/** Distinctive pieces of every form (a whole form may be cut by a cap; its middle must not survive either). */
function traces(key: string): string[] {
  return [key.slice(3, 15), ...Object.values(FORMS).map((f) => f(key))];
}

describe('canary property: a planted key never leaves through a request, card, stored file, log or support text', () => {
  const startGateway = scriptedGatewayPerTest();

  for (let round = 0; round < 5; round++) {
    const formNames = Object.keys(FORMS);
    const form = formNames[round % formNames.length];
    it(`round ${round + 1}: the key echoed ${form} by headers, bodies, files and command output`, async () => {
      const key = canary();
      const echo = FORMS[form](key);
      // The environment: imported once, removed from it, a known secret from then on (src/keys/keyStore.ts).
      const env: Record<string, string | undefined> = { [API_KEY_ENV]: key };
      const secrets = new SecretRegistry();
      const taken = takeEnvKey(env, API_KEY_ENV);
      secrets.setStored([taken.key!, ...(taken.raw ? [taken.raw] : [])]);
      assert.equal(env[API_KEY_ENV], undefined);

      const gw = await startGateway((_req, n) =>
        n === 1
          ? {
              kind: 'message',
              blocks: [
                toolUse('r1', 'read_file', { path: 'config.txt' }),
                toolUse('c1', 'run_command', { command: 'npm test' }),
              ],
              stopReason: 'tool_use',
            }
          : {
              kind: 'status',
              status: 400,
              headers: { 'request-id': echo, 'x-request-id': echo },
              body: {
                type: 'error',
                error: { type: `bad ${echo}`, message: `the key ${echo} is wrong` },
                request_id: echo,
              },
            },
      );
      const records: SupportRecord[] = [];
      const log: string[] = [];
      const put = (m: string): void => void log.push(m);
      const client = createGatewayClient({
        baseUrl: gw.server.url,
        apiKey: key,
        secrets: () => secrets.values(),
        maxRetries: 0,
        onSupportRecord: (r) => records.push(r),
        logger: { debug: put, info: put, warn: put, error: put },
      });
      const tools: Array<Tool<never>> = [
        {
          name: 'read_file',
          description: 'Read a file',
          approvalClass: 'read',
          inputSchema: { type: 'object' },
          target: () => ({ paths: ['/ws/config.txt'] }),
          invoke: async () => ({ content: `token = ${echo}\nother = 1` }),
        },
        {
          name: 'run_command',
          description: 'Run a command',
          approvalClass: 'command',
          inputSchema: { type: 'object' },
          target: () => ({ command: 'npm test', cwd: '/ws' }),
          invoke: async (_i, ctx) => {
            ctx.progress(`env: KEY=${echo}`);
            return { content: `Exit code: 0\nKEY=${echo}`, details: { output: `KEY=${echo}` } };
          },
        },
      ] as Array<Tool<never>>;
      const events: AgentEvent[] = [];
      const result = await runAgentTurn(
        goTurnOptions(gw, tools, {
          client,
          onEvent: (e) => events.push(e),
          redact: secrets.redactKnown,
          policy: { workspaceFolders: ['/ws'], commandAllowList: ['npm test'] },
        }),
      );
      assert.equal(result.reason, 'error', result.message);
      // The error card as the chat builds it (src/chat/host/register.ts), then stored with the conversation.
      const card = redactDeep(
        toErrorCard(result.error, (e) => adviseOnError(e, { surface: 'chat' })),
        secrets.redact,
      );
      assert.match(card.detail, /\[redacted\]/, 'the request id is shown as redacted');
      const files = new Map<string, string>();
      const storage = redactingStorage(
        { read: async (n) => files.get(n), write: async (n, d) => void files.set(n, d), remove: async () => undefined },
        secrets.redactKnown,
      );
      await storage.write('conversation-1.json', JSON.stringify({ events, card, transcript: result.messages }));
      const ring = new SupportRing(50, secrets.redact);
      for (const r of records) ring.add(r);

      const surfaces: Record<string, string> = {
        'request bodies': JSON.stringify(gw.bodies),
        'agent events': JSON.stringify(events),
        'error card': JSON.stringify(card),
        'stored conversation': [...files.values()].join('\n'),
        'support text': formatSupportInfo(ring.recent(), secrets.redact),
        log: log.join('\n'),
      };
      for (const [surface, text] of Object.entries(surfaces))
        for (const trace of traces(key)) assert.ok(!text.includes(trace), `${surface} holds ${trace}:\n${text}`);
      assert.equal(gw.bodies.length, 2, 'the tool results were sent (redacted)');
    });
  }
});
