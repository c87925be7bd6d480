// The emulator (src/emulator) as the server of a mocha suite: started before the suite, closed after it, and by
// default put back to its start state before each test.
import { startEmulator, type Emulator, type EmulatorConfig } from '../../src/emulator';

export interface EmulatorLifecycleOptions {
  /** Reset the emulator (request log, faults, balances, tasks) before each test; default true. */
  resetBeforeEach?: boolean;
}

/** Starts an emulator for the suite (before) and closes it (after); `get()` returns it. */
export function useEmulator(
  config?: () => EmulatorConfig,
  { resetBeforeEach = true }: EmulatorLifecycleOptions = {},
): () => Emulator {
  let emu: Emulator | undefined;
  before(async () => {
    emu = await startEmulator({ config: config?.() });
  });
  after(async () => {
    await emu?.close();
  });
  if (resetBeforeEach) beforeEach(() => emu?.reset());
  return () => emu!;
}
