// The sub-agent settings count from the user's own settings only: a repository cannot allow editing sub-agents, pick
// their model or raise how many run at once.
import * as assert from 'node:assert/strict';
import { subagentSettingsFrom } from '../../../src/agentHost/subagentSettings';

describe('sub-agent settings', () => {
  const from = (values: Record<string, { globalValue?: unknown; workspaceValue?: unknown }>) =>
    subagentSettingsFrom((key) => values[key]);

  it('defaults: explorers only, the conversation model, 3 at once', () => {
    assert.deepEqual(from({}), { permission: 'read-only', maxParallel: 3 });
  });

  it('takes the user values, clamps the cap to 1..8', () => {
    assert.deepEqual(
      from({
        subagents: { globalValue: 'edit' },
        subagentModel: { globalValue: ' small-model ' },
        maxParallelSubagents: { globalValue: 50 },
      }),
      { permission: 'edit', model: 'small-model', maxParallel: 8 },
    );
    assert.equal(from({ subagents: { globalValue: 'off' } }).permission, 'off');
    assert.equal(from({ maxParallelSubagents: { globalValue: 0 } }).maxParallel, 1);
  });

  it('ignores workspace values and unknown ones', () => {
    assert.deepEqual(
      from({
        subagents: { workspaceValue: 'edit', globalValue: 'everything' },
        subagentModel: { workspaceValue: 'pricey-model' },
        maxParallelSubagents: { workspaceValue: 8 },
      }),
      { permission: 'read-only', maxParallel: 3 },
    );
  });
});
