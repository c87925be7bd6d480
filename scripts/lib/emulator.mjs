// Starts the gateway emulator in a child process (so its work never blocks the harness) and returns
// its URL and admin token, or null when src/emulator/index.ts does not exist yet.
import fs from 'node:fs';
import path from 'node:path';
import { start } from './proc.mjs';

/** Returns {url, port, adminToken, child} or null when the emulator source is absent. */
export async function startEmulatorProcess(root, { port = 0, config, logFile, timeoutMs = 60_000 } = {}) {
  if (!fs.existsSync(path.join(root, 'src', 'emulator', 'index.ts'))) return null;
  const args = ['--import', 'tsx', path.join(root, 'scripts', 'lib', 'runEmulator.mjs'), '--port', String(port)];
  if (config) args.push('--config', config);
  const child = start(process.execPath, args, { cwd: root });
  const log = logFile ? fs.createWriteStream(logFile) : undefined;
  child.stderr.on('data', (d) => log?.write(d));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('emulator did not start within timeout')), timeoutMs);
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      resolve({ ...JSON.parse(line), child });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with ${code}${logFile ? ` (see ${logFile})` : ''}`));
    });
  });
}
