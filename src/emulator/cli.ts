// `node dist/emulator.js --port 8787 --config emulator.json [--admin-token T] [--host 127.0.0.1] [--quiet]`

import { readFileSync } from 'node:fs';
import { defaultConfig, parseConfigText } from './config';
import { startEmulator } from './server';

interface CliArgs {
  port: number;
  host: string;
  config?: string;
  adminToken?: string;
  quiet: boolean;
}

function parseArgs(argv: string[]): CliArgs {
  const args: CliArgs = { port: 8787, host: '127.0.0.1', quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = (): string => inline ?? argv[++i] ?? '';
    if (flag === '--port') args.port = Number(value());
    else if (flag === '--host') args.host = value();
    else if (flag === '--config') args.config = value();
    else if (flag === '--admin-token') args.adminToken = value();
    else if (flag === '--quiet') args.quiet = true;
    else if (flag === '--help' || flag === '-h') {
      console.log(
        'usage: emulator [--port 8787] [--host 127.0.0.1] [--config emulator.json] [--admin-token T] [--quiet]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) throw new Error('--port must be 0..65535');
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const config = args.config ? parseConfigText(readFileSync(args.config, 'utf8')) : defaultConfig();
  const emulator = await startEmulator({
    port: args.port,
    host: args.host,
    config,
    adminToken: args.adminToken,
    log: args.quiet ? undefined : (line) => console.log(line),
  });
  const stop = (signal: string): void => {
    console.log(`${signal}: stopping`);
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // Printed last: whoever waits for this line may signal us right away.
  const demo = config.keys.find((k) => !k.revoked) ?? config.keys[0];
  // One write: a reader that acts on the URL line must already have the key line (two writes can arrive apart).
  console.log(
    `Model Gateway emulator listening on ${emulator.url}\nDemo key: ${demo?.key ?? '(none)'}   Admin token: ${emulator.adminToken}`,
  );
}

main().catch((err: unknown) => {
  console.error(`emulator: ${(err as Error).message ?? String(err)}`);
  process.exit(1);
});
