// Figure: extension bundle and VSIX size, against the peers' published VSIX sizes.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow } from './table';

export async function runSizeBench(root: string): Promise<BenchRow[]> {
  const { packageVsix } = (await import(pathToFileURL(join(root, 'scripts', 'package.mjs')).href)) as {
    packageVsix(o: {
      out: string;
      quiet: boolean;
    }): Promise<{ file: string; bytes: number; dist: Record<string, number> }>;
  };
  // packageVsix creates out/ (a fresh clone has none) and reports the sizes of the production build it packaged
  // (dist/ of this checkout may hold a development build).
  const { bytes: vsix, dist } = await packageVsix({ out: join(root, 'out', 'bench.vsix'), quiet: true });
  const bundle = dist['extension.js'] ?? 0;
  const webviews = Object.entries(dist)
    .filter(([f]) => f.startsWith('webview/') && !f.endsWith('.map'))
    .reduce((n, [, b]) => n + b, 0);
  const kb = (b: number) => `${(b / 1024).toFixed(0)} KB`;
  return [
    {
      figure: 'VSIX size (extension.js / webview bundles)',
      baseline: 'Cline ~7 MB, Continue ~70 MB VSIX',
      value: `${kb(vsix)} (${kb(bundle)} / ${kb(webviews)})`,
      target: 'VSIX ≤ 1 MB',
      met: vsix <= 1024 * 1024,
      note: `${((7 * 1024 * 1024) / vsix).toFixed(0)}× smaller than Cline's`,
    },
  ];
}
