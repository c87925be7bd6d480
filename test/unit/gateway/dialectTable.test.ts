// The one dialect table (src/shared/dialects.ts, docs/architecture.md#adding-a-dialect): every dialect of it has each
// thing derived from it — route, wire (mapping and event reader), setting value, ledger value, endpoint type, Check
// Connection label, the setting's enum in package.json and its description — and the emulator answers it end to end.
// A dialect added to the table and forgotten in any of these fails here.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createGatewayClient, type UsageRecord } from '../../../src/gateway';
import { dialectsOfEndpointTypes, parseDialect } from '../../../src/gateway/dialects/dialect';
import { wireOf } from '../../../src/gateway/dialects/dialectCall';
import { ROUTES } from '../../../src/gateway/dialects/dialectPlan';
import { DIALECT_TABLE, DIALECTS, dialectRoute, type Dialect } from '../../../src/shared/dialects';
import { parseConfig } from '../../../src/shared/config';
import { entryOf } from '../../../src/shared/usageLedger';
import { dialectName } from '../../../src/diagnostics/dialectStep';
import { defaultConfig } from '../../../src/emulator';
import { useEmulator } from '../../support/emulatorLifecycle';

const ROOT = path.join(__dirname, '..', '..', '..');
const readJson = (file: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;

describe('the dialect table', () => {
  it('starts with Messages, the default dialect, and names each dialect once', () => {
    assert.equal(DIALECTS[0], 'messages');
    assert.equal(new Set(DIALECTS).size, DIALECTS.length);
  });

  for (const dialect of DIALECTS) {
    describe(dialect, () => {
      const { path: urlPath, label, endpointType } = DIALECT_TABLE[dialect];

      it('has its route and its wire: a request mapping, a whole-reply mapping and an event reader', () => {
        assert.equal(ROUTES[dialect], `POST ${urlPath}`);
        assert.equal(dialectRoute(dialect), ROUTES[dialect]);
        const wire = wireOf(dialect);
        assert.equal(typeof wire.whole, 'function');
        assert.ok(wire.notWhole.length > 0);
        const reader = wire.reader();
        assert.equal(typeof reader.read, 'function');
        assert.equal(typeof reader.fastText, 'function');
        assert.ok(reader.cutWhy.length > 0);
      });

      it('is a value of the setting, of the usage ledger and of the model list', () => {
        assert.equal(parseDialect(dialect), dialect);
        const config = parseConfig({ 'models.dialects': { m: dialect } });
        assert.equal(config.modelDialects.m, dialect);
        assert.deepEqual(config.problems ?? [], []);
        const entry = entryOf({
          t: new Date().toISOString(),
          key: 'k',
          model: 'm',
          route: ROUTES[dialect],
          dialect,
          input: 1,
          output: 1,
          cacheRead: 0,
          cacheWrite: 0,
        });
        assert.equal(entry?.dialect, dialect);
        const listed = endpointType.endsWith('…') ? `${endpointType.slice(0, -1)}-x` : endpointType;
        assert.deepEqual(dialectsOfEndpointTypes([listed]), [dialect]);
      });

      it('is named with its route in Check Connection', () => {
        assert.equal(dialectName(dialect), `${label} (POST ${urlPath})`);
      });

      it("is in package.json's enum of modelGateway.models.dialects and in its description (en, zh-cn)", () => {
        const pkg = readJson('package.json') as {
          contributes: { configuration: { properties: Record<string, { additionalProperties: { enum: string[] } }> } };
        };
        const setting = pkg.contributes.configuration.properties['modelGateway.models.dialects'];
        assert.deepEqual(setting.additionalProperties.enum, DIALECTS);
        for (const nls of ['package.nls.json', 'package.nls.zh-cn.json']) {
          const text = String(readJson(nls)['config.models.dialects.markdownDescription']);
          assert.ok(text.includes(`\`${dialect}\``) && text.includes(`\`POST ${urlPath}\``), `${nls}: ${dialect}`);
        }
      });
    });
  }

  describe('against the emulator, each dialect end to end', function () {
    this.timeout(20_000);
    const emu = useEmulator(() => defaultConfig(), { resetBeforeEach: false });
    const clientIn = (dialect: Dialect, usage: UsageRecord[]) =>
      createGatewayClient({
        baseUrl: emu().url,
        apiKey: 'mg-demo-key-0001',
        dialects: { knowledge: () => ({ override: dialect }), learned: () => undefined },
        onUsage: (record) => usage.push(record),
      });

    for (const dialect of DIALECTS) {
      it(`${dialect}: streams and creates a message over ${DIALECT_TABLE[dialect].path}`, async () => {
        const usage: UsageRecord[] = [];
        const client = clientIn(dialect, usage);
        const request = {
          model: 'claude-demo-sonnet',
          max_tokens: 200,
          messages: [{ role: 'user' as const, content: `hello over ${dialect}` }],
        };
        const streamed = await client.streamMessage(request).finalMessage();
        const whole = await client.createMessage(request);
        for (const m of [streamed, whole]) {
          const text = m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
          assert.ok(text.includes(`hello over ${dialect}`), text);
          assert.ok(m.usage.output_tokens > 0);
        }
        assert.deepEqual(
          usage.map((u) => [u.route, u.dialect ?? 'messages']),
          [
            [ROUTES[dialect], dialect],
            [ROUTES[dialect], dialect],
          ],
        );
      });
    }
  });
});
