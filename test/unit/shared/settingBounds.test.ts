// Numbers outside a setting's bounds are clamped to the bound (never replaced by the default) and said once; the
// bounds are the ones package.json declares.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentSettingsFrom } from '../../../src/agentHost/settingsParse';
import { parseConfig } from '../../../src/shared/config';
import { OnceNotices, SETTING_BOUNDS } from '../../../src/shared/settingBounds';

describe('settings outside their bounds', () => {
  const steps = (globalValue: unknown, workspaceValue?: unknown) =>
    agentSettingsFrom((key: string) =>
      key === 'maxSteps'
        ? ({ defaultValue: 25, globalValue, workspaceValue } as never)
        : key === 'commandTimeoutSeconds'
          ? ({ defaultValue: 300, globalValue: 99_999 } as never)
          : undefined,
    );

  it('agent.maxSteps above 200, 0 or negative is clamped, and each is listed', () => {
    assert.equal(steps(1000).maxSteps, 200);
    assert.deepEqual(steps(1000).clamped[0], { key: 'agent.maxSteps', value: 1000, used: 200, min: 1, max: 200 });
    assert.equal(steps(0).maxSteps, 1);
    assert.equal(steps(-5).maxSteps, 1);
    assert.equal(steps(40).maxSteps, 40);
    assert.equal(steps(40, 500).maxSteps, 40, 'a workspace still only lowers the budget');
    assert.equal(steps(40).commandTimeoutMs, 7200 * 1000, 'commandTimeoutSeconds 99999 is clamped to 7200');
    assert.deepEqual(
      steps(40).clamped.map((c) => c.key),
      ['agent.commandTimeoutSeconds'],
    );
  });

  it('the request timeout, max tokens and cache minutes are clamped too (the default is not used instead)', () => {
    const config = parseConfig({ requestTimeoutSeconds: 1, 'chat.maxTokens': 5_000_000, 'models.cacheMinutes': -1 });
    assert.equal(config.requestTimeoutMs, 5_000);
    assert.equal(config.chat.maxTokens, 1_000_000);
    assert.equal(config.modelCacheMs, 0);
    assert.deepEqual(
      config.clamped?.map((c) => `${c.key} ${c.value}→${c.used}`),
      ['chat.maxTokens 5000000→1000000', 'requestTimeoutSeconds 1→5', 'models.cacheMinutes -1→0'],
    );
    assert.equal(parseConfig({ requestTimeoutSeconds: 60 }).clamped, undefined);
  });

  it('each clamped value is said once', () => {
    const once = new OnceNotices();
    const c = steps(1000).clamped;
    assert.equal(once.fresh(c).length, 2);
    assert.equal(once.fresh(steps(1000).clamped).length, 0, 'read again: nothing new to say');
    assert.deepEqual(
      once.fresh(steps(300).clamped).map((x) => x.value),
      [300],
      'a new value is said',
    );
  });

  it('the bounds are the ones package.json declares, for every bounded number setting', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8'));
    const declared: Record<string, { min: number; max: number }> = {};
    for (const [key, schema] of Object.entries(
      manifest.contributes.configuration.properties as Record<string, { minimum?: number; maximum?: number }>,
    ))
      if (schema.minimum !== undefined || schema.maximum !== undefined)
        declared[key.replace(/^modelGateway\./, '')] = { min: schema.minimum!, max: schema.maximum! };
    assert.deepEqual(declared, SETTING_BOUNDS);
  });
});
