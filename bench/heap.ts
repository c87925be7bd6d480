// Figure: heap growth of the host-side pipeline after 100 streamed ~10 KB answers (kept in history).
// Measured in a plain Node child with --expose-gc running the same gateway client the extension host
// runs; the emulator lives in this (parent) process so its memory does not count.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { startEmulator, defaultConfig } from '../src/emulator';
import type { BenchRow } from './table';

export async function runHeapBench(root: string, answers = 100): Promise<BenchRow[]> {
  const emulator = await startEmulator({ port: 0, config: defaultConfig() });
  try {
    emulator.setFaults('mg-demo-key-0001', { tokensPerSecond: 0 });
    // Asynchronous on purpose: the emulator runs on this process's event loop.
    const { stdout: out } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', join(root, 'bench', 'heapWorker.ts'), emulator.url, String(answers), '2700'],
      { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    const r = JSON.parse(out.trim().split('\n').pop() ?? '{}') as {
      before: number;
      after: number;
      textBytes: number;
      answers: number;
    };
    const mb = (b: number) => (b / 1024 / 1024).toFixed(2);
    const growth = r.after - r.before;
    return [
      {
        figure: `host heap after ${r.answers} streamed answers (${(r.textBytes / r.answers / 1024).toFixed(1)} KB each, kept)`,
        baseline: `heap before: ${mb(r.before)} MB`,
        value: `+${mb(growth)} MB (answers' own text: ${mb(r.textBytes)} MB)`,
        target: 'growth ≤ 10 MB',
        met: growth <= 10 * 1024 * 1024,
        note: 'plain Node child running the host pipeline, --expose-gc',
      },
    ];
  } finally {
    await emulator.close();
  }
}
