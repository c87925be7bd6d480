// The settings table (src/shared/settingsTable.ts) is the one place that says how far a workspace's value of each
// `modelGateway.*` setting is trusted: it must list every setting of package.json exactly once, with its default, give
// every user-only setting `"scope": "application"`, keep every setting that changes a request's price out of a
// repository's hands, and be the table docs/security.md shows.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { CONFIG_KEYS, USER_ONLY_CONFIG_KEYS } from '../../../src/shared/config';
import {
  SETTINGS_TABLE,
  settingsTableMarkdown,
  valueUnderTrust,
  ignoredWorkspaceValue,
} from '../../../src/shared/settingsTable';

interface Manifest {
  contributes: { configuration: { properties: Record<string, { default?: unknown; scope?: string }> } };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const manifest = require('../../../package.json') as Manifest;
const properties = manifest.contributes.configuration.properties;
const rowOf = (key: string) => SETTINGS_TABLE.find((r) => r.key === key);

describe('settings table', () => {
  it("lists every setting of package.json's contributes.configuration in exactly one row, with its default", () => {
    const declared = Object.keys(properties).map((k) => k.replace(/^modelGateway\./, ''));
    const rows = SETTINGS_TABLE.map((r) => r.key);
    assert.equal(new Set(rows).size, rows.length, 'no key has two rows');
    assert.deepEqual([...rows].sort(), [...declared].sort());
    for (const r of SETTINGS_TABLE)
      assert.deepEqual(r.default, properties[`modelGateway.${r.key}`]?.default ?? null, `default of ${r.key}`);
  });

  it('gives every user-only setting "scope": "application" in package.json, and no other setting that scope', () => {
    for (const r of SETTINGS_TABLE)
      assert.equal(
        properties[`modelGateway.${r.key}`]?.scope === 'application',
        r.trust === 'user-only',
        `${r.key} is ${r.trust}`,
      );
  });

  it('keeps every setting that changes what a request costs (or the vision question) out of a workspace', () => {
    const costly = [
      'chat.defaultModel',
      'agent.defaultModel',
      'images.defaultModel',
      'completions.model',
      'chat.maxTokens',
      'images.defaultSize',
      'images.defaultQuality',
      'images.confirmCostlyRequests',
      'budget.daily',
      'prices',
      'models.vision',
      'models.reasoning',
    ];
    for (const key of costly) assert.equal(rowOf(key)?.trust, 'user-only', key);
    for (const r of SETTINGS_TABLE.filter((x) => x.risk === 'cost'))
      assert.ok(r.trust !== 'workspace-ok' || r.key === 'agent.maxSteps', `${r.key} costs money`);
  });

  it('has a row for every key parseConfig reads, and its user-only keys are the rows marked so', () => {
    for (const key of CONFIG_KEYS) assert.ok(rowOf(key), key);
    for (const key of CONFIG_KEYS) assert.equal(USER_ONLY_CONFIG_KEYS.has(key), rowOf(key)?.trust === 'user-only');
  });

  it("reads a user-only setting from the user's value or the default, whatever the workspace or folder says", () => {
    const hostile = { defaultValue: true, workspaceValue: false, workspaceFolderValue: false };
    assert.equal(valueUnderTrust('images.confirmCostlyRequests', hostile), true);
    assert.equal(valueUnderTrust('images.confirmCostlyRequests', { ...hostile, globalValue: false }), false);
    assert.equal(valueUnderTrust('chat.maxTokens', { defaultValue: 4096, workspaceValue: 200_000 }), 4096);
    assert.deepEqual(valueUnderTrust('models.vision', { defaultValue: {}, workspaceValue: { blind: true } }), {});
    assert.deepEqual(ignoredWorkspaceValue('chat.maxTokens', { defaultValue: 4096, workspaceValue: 200_000 }), 200_000);
    // A key without a row is user-only too: a new setting cannot be widened by forgetting its row.
    assert.equal(valueUnderTrust('agent.newSetting', { workspaceValue: 'x', globalValue: 'u' }), 'u');
  });

  it('reads a workspace-ok setting as get() would: folder, workspace, user, default', () => {
    assert.equal(
      valueUnderTrust('requestTimeoutSeconds', { defaultValue: 120, globalValue: 60, workspaceValue: 5 }),
      5,
    );
    assert.equal(valueUnderTrust('requestTimeoutSeconds', { defaultValue: 120, globalValue: 60 }), 60);
    assert.equal(valueUnderTrust('requestTimeoutSeconds', { defaultValue: 120 }), 120);
    assert.equal(ignoredWorkspaceValue('requestTimeoutSeconds', { workspaceValue: 5 }), undefined);
  });

  it('is the per-setting table of docs/security.md', () => {
    const page = readFileSync('docs/security.md', 'utf8');
    const table = /<!-- settings-table:start[^>]*-->\n([\s\S]*?)\n<!-- settings-table:end -->/.exec(page)?.[1];
    assert.equal(table, settingsTableMarkdown(), 'regenerate with: npx tsx scripts/settingsTable.ts');
  });
});
