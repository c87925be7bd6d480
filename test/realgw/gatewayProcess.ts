// A real third-party gateway as a child process of the test run: started with a clean environment, its output
// kept for failure messages, ready once it prints `LISTENING <port>`, and killed at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface GatewayProcess {
  /** `http://127.0.0.1:<port>` of the gateway. */
  url: string;
  /** Everything it printed (stdout and stderr). */
  output(): string;
  /** Kills it (SIGKILL) and waits until it has exited. */
  kill(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs `node <args>` from the repository root; `name` is for the failure messages. */
export async function startGatewayProcess(name: string, args: string[]): Promise<GatewayProcess> {
  const child: ChildProcess = spawn(process.execPath, args, {
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
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    }
  };
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 20 s:\n${out}`)), 20_000);
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
      reject(new Error(`${name} exited with ${code} before listening:\n${out}`));
    });
  }).catch(async (e: unknown) => {
    await kill();
    throw e;
  });
  return { url: `http://127.0.0.1:${port}`, output: () => out, kill };
}
