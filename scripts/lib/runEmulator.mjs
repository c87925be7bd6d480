// Child-process entry that starts the gateway emulator from source (run with `node --import tsx`).
// Prints one JSON line {url, port, adminToken} on stdout when listening; logs go to stderr.
// Usage: node --import tsx scripts/lib/runEmulator.mjs [--port N] [--config emulator.json]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const mod = await import(pathToFileURL(path.join(ROOT, 'src', 'emulator', 'index.ts')).href);
const configFile = opt('--config');
const config = configFile ? mod.parseConfigText(fs.readFileSync(configFile, 'utf8')) : undefined;
const emulator = await mod.startEmulator({
  port: Number(opt('--port') ?? 0),
  host: '127.0.0.1',
  config,
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(
  `${JSON.stringify({ url: emulator.url, port: emulator.port, adminToken: emulator.adminToken })}\n`,
);
const stop = () => {
  emulator.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
