// `npm run bench`: every performance figure of the project, each next to a baseline measured in the
// same run on this machine. Prints a markdown table and writes bench/results.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderTable, type BenchRow } from './table';
import { mergeRows, type StoredRow } from './merge';
import { runStreamBench } from './stream';
import { runChatStreamBench } from './chatStream';
import { runResponsesStreamBench } from './responsesStream';
import { runWebviewBench } from './webview';
import { runActivationBench } from './activation';
import { runSizeBench } from './size';
import { runTaskPollBench } from './taskPolls';
import { runHeapBench } from './heap';
import { runAgentBench } from './agent';
import { runAgentViewBench } from './agentView';
import { runAgentFixedBench } from './agentFixed';
import { runAgentCondenseBench } from './agentCondense';
import { runCompletionBench } from './completions';
import { runImagePasteBench } from './imagePaste';
import { runAgentImageBench } from './agentImage';
import { runCompletionHostBench } from './completionsHost';
import { runSharedStateBench } from './sharedState';
import { runSubagentsBench } from './subagents';

const root = join(__dirname, '..');

interface Section {
  name: string;
  run: () => Promise<BenchRow[]>;
}

const sections: Section[] = [
  { name: 'stream', run: () => runStreamBench() },
  { name: 'chat stream', run: () => runChatStreamBench() },
  { name: 'responses stream', run: () => runResponsesStreamBench() },
  { name: 'webview', run: () => runWebviewBench() },
  { name: 'activation', run: () => runActivationBench(root) },
  { name: 'size', run: () => runSizeBench(root) },
  { name: 'task polls', run: () => runTaskPollBench() },
  { name: 'heap', run: () => runHeapBench(root) },
  { name: 'agent', run: () => runAgentBench() },
  { name: 'agent view', run: () => runAgentViewBench() },
  { name: 'agent fixed', run: () => runAgentFixedBench() },
  { name: 'agent condense', run: () => runAgentCondenseBench() },
  { name: 'completions', run: () => runCompletionBench() },
  { name: 'image paste', run: () => runImagePasteBench() },
  { name: 'agent image', run: () => runAgentImageBench() },
  { name: 'completions host', run: () => runCompletionHostBench(root) },
  { name: 'shared state', run: () => runSharedStateBench() },
  { name: 'subagents', run: () => runSubagentsBench() },
];

function readStored(file: string): StoredRow[] {
  if (!existsSync(file)) return [];
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { rows?: StoredRow[]; measuredAt?: string; node?: string };
    // Files written before rows carried their own date take the file's.
    return (data.rows ?? []).map((r) => ({ measuredAt: data.measuredAt, node: data.node, ...r }));
  } catch {
    return [];
  }
}

async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = only.filter((n) => !sections.some((s) => s.name === n));
  if (unknown.length)
    throw new Error(`unknown bench section(s) ${unknown.join(', ')}; known: ${sections.map((s) => s.name).join(', ')}`);
  const rows: StoredRow[] = [];
  const ran: string[] = [];
  const failed: string[] = [];
  for (const section of sections) {
    if (only.length && !only.includes(section.name)) continue;
    const started = Date.now();
    ran.push(section.name);
    console.error(`[bench] ${section.name}...`);
    let measured: BenchRow[];
    try {
      measured = await section.run();
    } catch (err) {
      failed.push(section.name);
      measured = [
        {
          figure: section.name,
          baseline: '-',
          value: 'not measured',
          target: '-',
          met: undefined,
          note: String((err as Error).message ?? err).split('\n')[0],
        },
      ];
    }
    const at = new Date().toISOString();
    rows.push(...measured.map((r) => ({ ...r, section: section.name, measuredAt: at, node: process.version })));
    console.error(`[bench] ${section.name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log(renderTable(rows));
  const file = join(root, 'bench', 'results.json');
  const merged = mergeRows(
    readStored(file),
    rows,
    ran,
    sections.map((s) => s.name),
  );
  writeFileSync(
    file,
    JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, rows: merged }, null, 2) + '\n',
  );
  // A figure that could not be measured is a failure of the run (the fresh-clone check of npm test relies on it).
  if (failed.length) {
    console.error(`[bench] not measured: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
