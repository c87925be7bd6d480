// Where an approved command runs (pure): in the "Model Gateway Agent" terminal through shell integration, or as a
// background process of the extension host. The choice must not flip from one command (or session) to the next on
// how fast a shell happened to start: a new terminal's shell reads its rc files (nvm alone takes seconds) on a
// machine that may be busy, so the wait is long (SHELL_INTEGRATION_WAIT_MS, with a visible note while it lasts);
// shell integration switched off in the settings means the process at once; and once shell integration did not
// activate in this window, the rest of the window's commands run as processes too, each result saying why.

/** How long a new terminal may take to report shell integration. */
export const SHELL_INTEGRATION_WAIT_MS = 20_000;
/** After this long without shell integration, the command's card says what it waits for. */
export const WAIT_NOTE_AFTER_MS = 1_000;

export type CommandMode = { mode: 'terminal'; waitMs: number } | { mode: 'process'; reason: string };

export function commandMode(o: {
  /** CommandToolOptions.shellIntegrationWaitMs (tests); undefined: SHELL_INTEGRATION_WAIT_MS. */
  configuredWaitMs?: number;
  /** terminal.integrated.shellIntegration.enabled as VS Code reads it. */
  shellIntegrationEnabled: boolean;
  /** Why an earlier command of this window fell back to a process, if one did. */
  earlierFallback?: string;
}): CommandMode {
  const waitMs = o.configuredWaitMs ?? SHELL_INTEGRATION_WAIT_MS;
  if (waitMs <= 0) return { mode: 'process', reason: 'the terminal was not used (configured)' };
  if (!o.shellIntegrationEnabled)
    return {
      mode: 'process',
      reason: 'shell integration is switched off (terminal.integrated.shellIntegration.enabled)',
    };
  if (o.earlierFallback)
    return { mode: 'process', reason: `as for the earlier commands of this window: ${o.earlierFallback}` };
  return { mode: 'terminal', waitMs };
}

/** The reason given when a new terminal did not report shell integration in time. */
export function notActivatedReason(waitMs: number): string {
  return `shell integration did not activate in the terminal within ${Math.round(waitMs / 1000)} s`;
}
