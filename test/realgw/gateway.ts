// Starts the upstream (in this process) and the real gateway (a child process) for a suite.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startUpstream, type Upstream } from './upstream';

/** The model id the client sends: this gateway routes on `provider,model`. */
export const GW_MODEL = 'up,up-model';

export interface RealGateway {
  /** Base URL for our client (site root of the gateway). */
  url: string;
  upstream: Upstream;
  /** Everything the gateway printed (stderr and stdout), for failure messages. */
  output(): string;
  close(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '..', '..');

export async function startRealGateway(): Promise<RealGateway> {
  const upstream = await startUpstream();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--require', 'tsx/cjs', path.join(__dirname, 'llmsMain.ts'), upstream.chatUrl],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      // The gateway must not pick up a proxy or a config from the environment of the test run.
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test' },
    },
  );
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start within 20 s:\n${out}`)), 20_000);
    const check = (): void => {
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout?.off('data', check);
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    upstream,
    output: () => out,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGKILL');
        await exited;
      }
      await upstream.close();
    },
  };
}

/** Starts the upstream and the gateway for a suite (before) and stops both (after). */
export function useRealGateway(): () => RealGateway {
  let gw: RealGateway | undefined;
  before(async function () {
    this.timeout(30_000);
    gw = await startRealGateway();
  });
  after(async () => {
    await gw?.close();
  });
  beforeEach(() => {
    gw?.upstream.requests.splice(0);
  });
  return () => gw!;
}
