// `npm run bench`: every performance figure of the project, each next to a baseline measured in the
// same run on this machine. Prints a markdown table and writes bench/results.json.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderTable, type BenchRow } from './table';
import { runStreamBench } from './stream';
import { runWebviewBench } from './webview';
import { runActivationBench } from './activation';
import { runSizeBench } from './size';
import { runTaskPollBench } from './taskPolls';
import { runHeapBench } from './heap';

const root = join(__dirname, '..');

interface Section { name: string; run: () => Promise<BenchRow[]> }

const sections: Section[] = [
  { name: 'stream', run: () => runStreamBench() },
  { name: 'webview', run: () => runWebviewBench() },
  { name: 'activation', run: () => runActivationBench(root) },
  { name: 'size', run: () => runSizeBench(root) },
  { name: 'task polls', run: () => runTaskPollBench() },
  { name: 'heap', run: () => runHeapBench(root) },
];

async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const rows: BenchRow[] = [];
  for (const section of sections) {
    if (only.length && !only.includes(section.name)) continue;
    const started = Date.now();
    console.error(`[bench] ${section.name}...`);
    try {
      rows.push(...(await section.run()));
    } catch (err) {
      rows.push({ figure: section.name, baseline: '-', value: 'not measured', target: '-', met: undefined, note: String((err as Error).message ?? err).split('\n')[0] });
    }
    console.error(`[bench] ${section.name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const table = renderTable(rows);
  console.log(table);
  writeFileSync(join(root, 'bench', 'results.json'), JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, rows }, null, 2) + '\n');
}

main().catch((err) => { console.error(err); process.exit(1); });
