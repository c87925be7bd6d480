// Typed entry for the activation figure (the work is in activation.mjs, which reuses the harness scripts).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow } from './table';

export async function runActivationBench(root: string): Promise<BenchRow[]> {
  const mod = (await import(pathToFileURL(join(root, 'bench', 'activation.mjs')).href)) as {
    runActivationBench(root: string): Promise<BenchRow[]>;
  };
  return mod.runActivationBench(root);
}
