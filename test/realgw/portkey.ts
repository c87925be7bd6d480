// Starts the real Portkey gateway (@portkey-ai/gateway, child process, test/realgw/portkeyMain.mjs) in front of
// the emulator: Portkey routes each request by the user's headers `x-portkey-provider` + `x-portkey-custom-host`
// to the emulator's /v1, which plays the provider. Real sockets: client → Portkey → emulator.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { defaultConfig, startEmulator, type Emulator } from '../../src/emulator';

export interface PortkeyGateway {
  url: string;
  emulator: Emulator;
  /** The headers a user sets for Portkey to reach the emulator as `provider`. */
  headersFor(provider: 'openai' | 'anthropic'): Record<string, string>;
  output(): string;
  close(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '..', '..');

export async function startPortkey(): Promise<PortkeyGateway> {
  const config = defaultConfig();
  config.messages.tokensPerSecond = 0;
  const emulator = await startEmulator({ config });
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, 'portkeyMain.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // No proxy, no config or cache settings from the test run's environment.
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test' },
  });
  let out = '';
  const collect = (c: Buffer): void => {
    out += c.toString('utf8');
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Portkey did not start within 20 s:\n${out}`)), 20_000);
    const check = (): void => {
      const m = /LISTENING (\d+)/.exec(out);
      if (m && Number(m[1]) > 0) {
        clearTimeout(timer);
        child.stdout?.off('data', check);
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Portkey exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    emulator,
    headersFor: (provider) => ({
      'x-portkey-provider': provider,
      'x-portkey-custom-host': `${emulator.url}/v1`,
    }),
    output: () => out,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGKILL');
        await exited;
      }
      await emulator.close();
    },
  };
}
