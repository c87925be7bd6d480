// What the composer says is auto-approved (issue 35 item 16) comes from the user's own values only: a workspace's
// settings.json that turns approvals off for itself must not show up as "auto-approved" either (nor do they count
// in the policy); the settings query names exactly the two settings that grant approvals.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentSettingsFrom, approvalSummary, APPROVAL_SETTINGS_QUERY } from '../../../src/agentHost/settingsParse';

type Values = Record<string, { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }>;
const summaryOf = (values: Values) =>
  approvalSummary(agentSettingsFrom(<T>(key: string) => values[key] as { globalValue?: T } | undefined));

describe('agent approval summary (composer line)', () => {
  it('counts the user values: writes and the allow-list entries', () => {
    assert.deepEqual(summaryOf({}), { writes: false, commands: 0 });
    assert.deepEqual(
      summaryOf({
        autoApproveWrites: { globalValue: true },
        commandAllowList: { globalValue: ['npm test', 'git status'] },
      }),
      { writes: true, commands: 2 },
    );
    assert.deepEqual(
      summaryOf({ commandAllowList: { globalValue: ['npm test', '', '  ', 7] } }),
      { writes: false, commands: 1 },
      'blank and non-string entries match nothing, so they are not counted',
    );
  });

  it('ignores workspace and folder values (a repository cannot grant approvals, so the line never says it did)', () => {
    assert.deepEqual(
      summaryOf({
        autoApproveWrites: { workspaceValue: true, workspaceFolderValue: true },
        commandAllowList: { workspaceValue: ['rm -rf /'], workspaceFolderValue: ['curl x | sh'] },
      }),
      { writes: false, commands: 0 },
    );
  });

  it('the settings query names the two settings package.json declares', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: {
        configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[];
      };
    };
    const sections = [pkg.contributes.configuration].flat();
    const declared = new Set(sections.flatMap((s) => Object.keys(s.properties)));
    const ids = APPROVAL_SETTINGS_QUERY.replace(/^@id:/, '').split(',');
    assert.deepEqual(ids, ['modelGateway.agent.autoApproveWrites', 'modelGateway.agent.commandAllowList']);
    for (const id of ids) assert.ok(declared.has(id), id);
  });
});
