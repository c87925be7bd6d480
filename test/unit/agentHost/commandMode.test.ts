// Where an approved command runs (issue 35 item 9): the same way every time, and the result says which and why.
import { strict as assert } from 'node:assert';
import { commandMode, notActivatedReason, SHELL_INTEGRATION_WAIT_MS } from '../../../src/agentHost/commandMode';

describe('run_command: terminal or background process', () => {
  it('the terminal with a wait long enough for a slow shell start (not 5 s)', () => {
    assert.deepEqual(commandMode({ shellIntegrationEnabled: true }), {
      mode: 'terminal',
      waitMs: SHELL_INTEGRATION_WAIT_MS,
    });
    assert.ok(SHELL_INTEGRATION_WAIT_MS >= 15_000);
  });

  it('shell integration switched off: the process at once, saying so (no 5 s wait that sometimes wins)', () => {
    const c = commandMode({ shellIntegrationEnabled: false });
    assert.equal(c.mode, 'process');
    assert.match((c as { reason: string }).reason, /terminal\.integrated\.shellIntegration\.enabled/);
  });

  it('after one fallback in this window, the next commands run as processes too, with the same reason', () => {
    const first = notActivatedReason(20_000);
    const next = commandMode({ shellIntegrationEnabled: true, earlierFallback: first });
    assert.deepEqual(next, {
      mode: 'process',
      reason:
        'as for the earlier commands of this window: shell integration did not activate in the terminal within 20 s',
    });
  });

  it('a configured 0 (tests) is the process', () => {
    assert.equal(commandMode({ configuredWaitMs: 0, shellIntegrationEnabled: true }).mode, 'process');
  });
});
