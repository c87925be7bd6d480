// Typed entry for the extension host's CPU while typing (the work is in completionsHost.mjs, which reuses the harness
// scripts to start code-server and Chromium).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow } from './table';

export async function runCompletionHostBench(root: string): Promise<BenchRow[]> {
  const mod = (await import(pathToFileURL(join(root, 'bench', 'completionsHost.mjs')).href)) as {
    runCompletionHostBench(root: string): Promise<BenchRow[]>;
  };
  return mod.runCompletionHostBench(root);
}
