// The one redaction (src/shared/secretRedaction.ts): every form a server or a program echoes a secret in, the
// registry of every secret the extension knows, deep redaction of results and stored conversations.
import * as assert from 'node:assert/strict';
import {
  REDACTED,
  redactDeep,
  redactKnownSecrets,
  redactSecrets,
  SecretRegistry,
  secretForms,
} from '../../../src/shared/secretRedaction';
import { redactingStorage, type HistoryStorage } from '../../../src/chat/store/history';
import { adviseOnError, createGatewayClient } from '../../../src/gateway';
import { json, startServer } from '../gateway/server';

const KEY = 'Zq9plainKEY4d8e2f0a77c31b';

describe('shared: secret redaction', () => {
  it('removes a secret verbatim, URL-encoded, base64 (any alignment, standard and URL-safe) and masked', () => {
    const odd = `${KEY}/+=&`;
    for (const prefix of ['', 'a', 'ab', 'user:']) {
      const encoded = Buffer.from(`${prefix}${odd}`).toString('base64');
      const out = redactKnownSecrets(`b64 ${encoded} url ${Buffer.from(`${prefix}${odd}`).toString('base64url')}`, [
        odd,
      ]);
      assert.ok(!out.includes(encoded.slice(4, 24)), `${prefix}: ${out}`);
    }
    const texts = [
      `plain ${KEY} end`,
      `url ${encodeURIComponent(odd)} end`,
      `masked ${KEY.slice(0, 7)}…${KEY.slice(-4)} end`,
      `masked ${KEY.slice(0, 4)}****${KEY.slice(-4)} end`,
    ];
    for (const text of texts) {
      const out = redactKnownSecrets(text, [odd, KEY]);
      assert.ok(out.includes(REDACTED), `${text} → ${out}`);
      assert.match(out, / end$/);
    }
    assert.ok(secretForms(KEY).includes(KEY));
  });

  it('known-only redaction leaves code alone; the full one also removes key-looking tokens and auth values', () => {
    const code = 'class="mg-container-fluid" const token = pk-live-placeholder;';
    assert.equal(redactKnownSecrets(code, [KEY]), code);
    assert.ok(!redactSecrets('Authorization: Bearer abcdefghijk sk-ant-abcdefgh12').includes('abcdefghijk'));
    assert.equal(redactSecrets('req_01HXYZ'), 'req_01HXYZ');
  });

  it('the registry knows stored keys, added secrets (until disposed) and providers', () => {
    const registry = new SecretRegistry();
    const seen: string[][] = [];
    registry.onDidChange((v) => seen.push(v));
    registry.setStored([KEY, 'short']);
    const header = registry.addSecret('HeaderSecretValue123');
    let extra = ['ProviderSecret987654'];
    registry.addProvider(() => extra);
    assert.deepEqual(registry.values(), [KEY, 'HeaderSecretValue123', 'ProviderSecret987654']);
    assert.equal(
      registry.redact(`${KEY} HeaderSecretValue123 ProviderSecret987654`),
      '[redacted] [redacted] [redacted]',
    );
    header.dispose();
    extra = [];
    assert.equal(registry.redactKnown('HeaderSecretValue123'), 'HeaderSecretValue123');
    assert.equal(seen.length, 3, 'told on setStored, addSecret and its disposal');
  });

  it('redactDeep redacts every string of a result but leaves image bytes', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: `AAAA${KEY}` } };
    const out = redactDeep({ content: [{ type: 'text', text: KEY }, image], details: { output: [KEY] } }, (t) =>
      redactKnownSecrets(t, [KEY]),
    );
    assert.deepEqual(out, { content: [{ type: 'text', text: REDACTED }, image], details: { output: [REDACTED] } });
  });

  it('stored conversations are redacted value by value: the JSON stays valid', async () => {
    const files = new Map<string, string>();
    const inner: HistoryStorage = {
      read: async (n) => files.get(n),
      write: async (n, d) => void files.set(n, d),
      remove: async (n) => void files.delete(n),
    };
    const storage = redactingStorage(inner, (t) => redactKnownSecrets(t, [KEY]));
    await storage.write('c.json', JSON.stringify({ text: `a "quoted" ${KEY}`, n: 1 }));
    const stored = files.get('c.json')!;
    assert.ok(!stored.includes(KEY));
    assert.deepEqual(JSON.parse(stored), { text: `a "quoted" ${REDACTED}`, n: 1 });
    await storage.write('plain.json', '{"text":"nothing secret"}');
    assert.equal(files.get('plain.json'), '{"text":"nothing secret"}', 'written as it is');
  });
});

describe("shared: secret redaction of OpenAI's real 401 (issue 45, item 16)", () => {
  const KEY_OF_USER = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789wxyz';
  const BODY = {
    error: {
      message: `Incorrect API key provided: sk-proj-${'*'.repeat(40)}wxyz. You can find your API key at https://platform.openai.com/account/api-keys.`,
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_api_key',
    },
  };

  it('redacts the masked key, not the words around "api_key:" (message, advice and the log line)', async () => {
    const server = await startServer((_req, res) => json(res, 401, BODY));
    const logged: string[] = [];
    try {
      const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m), error: () => undefined };
      const client = createGatewayClient({
        baseUrl: server.url,
        apiKey: KEY_OF_USER,
        maxRetries: 0,
        logger: log as never,
      });
      const error = (await client.listModels().catch((e: unknown) => e)) as Error & { serverMessage?: string };
      const texts = [
        error.message,
        error.serverMessage ?? '',
        adviseOnError(error, { surface: 'chat' }).detail,
        ...logged,
      ];
      for (const text of [...texts, redactSecrets(error.message, [KEY_OF_USER])]) {
        assert.ok(!text.includes('wxyz.') && !text.includes(KEY_OF_USER), text);
        assert.ok(!/\[redacted\] API key provided/.test(text), text);
      }
      assert.match(error.message, /HTTP 401 invalid_api_key: Incorrect API key provided: \[redacted\]\. You can find/);
    } finally {
      await server.close();
    }
  });

  it('still redacts credential values in header and JSON forms', () => {
    for (const text of [
      'x-api-key: abcdefgh',
      '"api_key":"Zq9secretvalue"',
      'api-key=s3cr3t; path=/',
      'Authorization: Basic dXNlcjpwYXNz',
    ])
      assert.ok(redactSecrets(text).includes(REDACTED), text);
  });
});
