// Typed access to the environment the harness (scripts/test.mjs) gives every test layer.
// Works in plain node (unit/UI) and inside the extension host (host tests).

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this suite through scripts/test.mjs`);
  return value;
}

/** Base URL of the running gateway emulator, e.g. http://127.0.0.1:41234. */
export function emulatorUrl(): string {
  return required('MG_EMULATOR_URL');
}

/** Bearer token of the emulator's admin API. */
export function emulatorAdminToken(): string {
  return process.env.MG_EMULATOR_ADMIN_TOKEN || 'emulator-admin';
}

/** Full workbench URL (with ?folder=) of the code-server the UI suite drives. */
export function workbenchUrl(): string {
  return required('MG_WORKBENCH_URL');
}

/** Absolute path of the workspace folder open in the workbench. */
export function workspaceDir(): string {
  return required('MG_WORKSPACE');
}

/** VS Code version under test, e.g. "1.100.3" (from the harness; in the host prefer vscode.version). */
export function vscodeVersion(): string {
  return process.env.MG_VSCODE_VERSION || 'unknown';
}

/** Folder for screenshots and other artefacts (git-ignored). */
export function resultsDir(): string {
  return process.env.MG_RESULTS_DIR || 'test-results';
}

/** True when the emulator is available to this run (the harness skips emulator suites otherwise). */
export function hasEmulator(): boolean {
  return Boolean(process.env.MG_EMULATOR_URL);
}

/** Compares dotted versions: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
