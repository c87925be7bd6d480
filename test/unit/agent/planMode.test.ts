// Plan mode: read-only tools are offered and run; an edit or command the model calls anyway is refused by the
// mode check before the policy or the user is asked (the approver is never reached), and nothing is written.
import * as assert from 'node:assert/strict';
import { modeRefusal, runAgentTurn, toolsForMode } from '../../../src/agent';
import { eventLog, fakeWorkspace, recordingApprover } from './fakeTools';
import { goTurnOptions } from './turnOptions';
import { lastToolResults, scriptedGatewayPerTest, text, toolUse } from './scriptedGateway';

describe('agent plan mode', () => {
  const startGateway = scriptedGatewayPerTest();

  it('offers only read-only tools and refuses an edit and a command the model calls anyway', async () => {
    const gw = await startGateway((req, n) =>
      n === 1
        ? {
            kind: 'message',
            blocks: [
              text('Looking, then trying to change things.'),
              toolUse('r1', 'read_file', { path: 'a.txt' }),
              toolUse('w1', 'write_file', { path: 'a.txt', content: 'changed' }),
              toolUse('c1', 'run_command', { command: 'npm test' }),
            ],
          }
        : { kind: 'message', blocks: [text(`results: ${lastToolResults(req).length}\n\n- [ ] change a.txt`)] },
    );
    const ws = fakeWorkspace({ '/ws/a.txt': 'A' });
    const log = eventLog();
    const approver = recordingApprover();
    const result = await runAgentTurn(
      goTurnOptions(gw, ws.tools, {
        mode: 'plan',
        policy: { workspaceFolders: ['/ws'], autoApproveWrites: true, commandAllowList: ['npm test'] },
        approve: (r) => approver.approve(r),
        onEvent: log.onEvent,
      }),
    );
    assert.equal(result.reason, 'end_turn');
    assert.deepEqual(
      gw.bodies[0].tools?.map((t) => t.name),
      ['read_file'],
    );
    assert.equal(ws.files.get('/ws/a.txt'), 'A');
    assert.deepEqual(
      ws.invoked.map((i) => i.name),
      ['read_file'],
    );
    assert.equal(approver.asked.length, 0, 'a refusal, never a question');
    const results = lastToolResults(gw.bodies[1]);
    assert.equal(results[0].content, 'A');
    for (const r of results.slice(1)) {
      assert.equal(r.is_error, true);
      assert.match(String(r.content), /^Refused: Plan mode is read-only/);
    }
    assert.deepEqual(
      log.ofType('tool_refused').map((e) => e.toolUseId),
      ['w1', 'c1'],
    );
  });

  it('Agent mode (the default) offers every tool and asks nothing of the mode', () => {
    const ws = fakeWorkspace();
    assert.deepEqual(
      toolsForMode(ws.tools, undefined).map((t) => t.name),
      ws.tools.map((t) => t.name),
    );
    assert.equal(modeRefusal('agent', { toolName: 'write_file', approvalClass: 'write' }), undefined);
    assert.equal(modeRefusal('plan', { toolName: 'read_file', approvalClass: 'read' }), undefined);
    for (const approvalClass of ['write', 'command', 'external'] as const)
      assert.ok(modeRefusal('plan', { toolName: 'x', approvalClass }), approvalClass);
  });
});
