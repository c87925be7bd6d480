// Agent benchmarks: the real agent loop (src/agent runAgentTurn) with the real gateway client against the
// emulator's scripted agent model (src/emulator/models/agentScript.ts) on 127.0.0.1.
// (a) Overhead of one tool step: from the emulator having written the whole tool_use message to the next
//     request's headers arriving at the emulator (timestamps at the emulator's socket), with read_file of a
//     real 100 KB temp file; reads are auto-approved (no approval wait). Baseline: a bare createMessage round
//     trip on the same emulator, same client.
// (b) Prompt caching on a 15-step turn: input tokens billed at full price with caching, as a percentage of the
//     same turn without caching (the emulator's cache accounting, src/emulator/promptCache.ts).
// Run alone with `npx tsx bench/agent.ts`; `npm run bench` runs it as the "agent" section.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CachingMemory, runAgentTurn, type Tool } from '../src/agent';
import { defaultConfig, startEmulator, type Emulator } from '../src/emulator';
import { createGatewayClient } from '../src/gateway';
import type { GatewayClient } from '../src/gateway/types';
import { fmt, fmtStats, stats, type BenchRow } from './table';

const AGENT_KEY = 'mg-agent-key-0008';
const MODEL = 'claude-demo-agent';
const SYSTEM =
  "You are a careful coding agent working in the user's workspace. " +
  Array.from(
    { length: 60 },
    (_v, i) => `Rule ${i + 1}: read before you edit, keep changes small, explain what you changed and why.`,
  ).join(' ');

/** Source-like text of about `bytes` bytes. */
function sourceText(bytes: number, seed: string): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `export function ${seed}${i}(input: number): number { return input * ${i} + ${i % 7}; } // ${seed} line ${i}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

/** read_file over a real folder: reads the file from disk on every call (what the step overhead includes). */
function readTool(root: string): Tool<never> {
  const tool: Tool<{ path: string }> = {
    name: 'read_file',
    description: 'Read a file of the workspace',
    approvalClass: 'read',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    target: (input) => ({ paths: [join(root, String(input.path))] }),
    invoke: async (input) => ({ content: await readFile(join(root, String(input.path)), 'utf8') }),
  };
  return tool as unknown as Tool<never>;
}

async function agentTurn(
  client: GatewayClient,
  root: string,
  task: string,
  caching: boolean,
): Promise<{ steps: number; reason: string }> {
  const memory = new CachingMemory();
  const r = await runAgentTurn({
    client,
    model: MODEL,
    maxTokens: 1024,
    system: SYSTEM,
    tools: [readTool(root)],
    policy: { workspaceFolders: [root] },
    messages: [{ role: 'user', content: task }],
    approve: async () => ({ approved: true }),
    caching: { enabled: caching, keyId: 'bench', memory },
  });
  return { steps: r.steps, reason: r.reason };
}

interface Timing {
  phase: 'received' | 'finished';
  path: string;
  at: number;
}

/** (a): step overheads (ms) from the emulator's timestamps, and bare round trips (ms) as the baseline. */
async function measureStepOverhead(root: string, turns: number): Promise<{ overhead: number[]; roundTrip: number[] }> {
  const timings: Timing[] = [];
  const config = defaultConfig();
  config.messages.tokensPerSecond = 0;
  const emu: Emulator = await startEmulator({
    config,
    onTiming: (t) => {
      if (t.path.startsWith('/v1/messages')) timings.push(t);
    },
  });
  const client = createGatewayClient({ baseUrl: emu.url, apiKey: AGENT_KEY, maxRetries: 0 });
  const overhead: number[] = [];
  const roundTrip: number[] = [];
  try {
    const bare = { model: MODEL, max_tokens: 256, messages: [{ role: 'user' as const, content: 'ping' }] };
    for (let i = 0; i < 5; i++) await client.createMessage(bare); // warm-up
    for (let i = 0; i < 40; i++) {
      const t0 = performance.now();
      await client.createMessage(bare);
      roundTrip.push(performance.now() - t0);
    }
    const task = 'Read the big file again and again.\n@tool read_file {"path":"big.txt"}\n@steps 15';
    for (let turn = 0; turn <= turns; turn++) {
      timings.length = 0;
      const r = await agentTurn(client, root, task, true);
      if (r.reason !== 'end_turn' || r.steps !== 16)
        throw new Error(`agent turn ended ${r.reason} after ${r.steps} steps`);
      if (turn === 0) continue; // warm-up turn
      // Requests of a turn are sequential: received, finished, received, finished, ...
      for (let i = 1; i + 1 < timings.length; i += 2) {
        if (timings[i].phase !== 'finished' || timings[i + 1].phase !== 'received')
          throw new Error('unexpected timing order');
        overhead.push(timings[i + 1].at - timings[i].at);
      }
    }
  } finally {
    await emu.close();
  }
  return { overhead, roundTrip };
}

/** (b): a 15-step turn with and without caching; input billed at full price, and cost-weighted input. */
async function measureCaching(
  root: string,
): Promise<{ fullWith: number; fullWithout: number; weightedWith: number; cacheRead: number; cacheWrite: number }> {
  const config = defaultConfig();
  config.messages.tokensPerSecond = 0;
  const emu = await startEmulator({ config });
  const client = createGatewayClient({ baseUrl: emu.url, apiKey: AGENT_KEY, maxRetries: 0 });
  const task =
    'Look through the three modules.\n@tool read_file {"path":"a.ts"}\n@tool read_file {"path":"b.ts"}\n@tool read_file {"path":"c.ts"}\n@steps 15';
  const sum = (pick: (u: NonNullable<ReturnType<Emulator['requests']>[number]['usage']>) => number): number =>
    emu.requests().reduce((n, r) => n + (r.usage ? pick(r.usage) : 0), 0);
  try {
    const plain = await agentTurn(client, root, task, false);
    if (plain.steps !== 16) throw new Error(`uncached turn: ${plain.reason} after ${plain.steps} steps`);
    const fullWithout = sum((u) => u.input);
    emu.reset();
    const cached = await agentTurn(client, root, task, true);
    if (cached.steps !== 16) throw new Error(`cached turn: ${cached.reason} after ${cached.steps} steps`);
    return {
      fullWith: sum((u) => u.input),
      fullWithout,
      weightedWith: sum((u) => u.inputCostTokens),
      cacheRead: sum((u) => u.cacheRead),
      cacheWrite: sum((u) => u.cacheWrite),
    };
  } finally {
    await emu.close();
  }
}

export async function runAgentBench(): Promise<BenchRow[]> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mg-agent-bench-')));
  try {
    writeFileSync(join(root, 'big.txt'), sourceText(100 * 1024, 'big'));
    for (const name of ['a', 'b', 'c']) writeFileSync(join(root, `${name}.ts`), sourceText(8 * 1024, name));
    const { overhead, roundTrip } = await measureStepOverhead(root, 4);
    const o = stats(overhead);
    const rt = stats(roundTrip);
    const c = await measureCaching(root);
    const pct = (100 * c.fullWith) / c.fullWithout;
    const weighted = (100 * c.weightedWith) / c.fullWithout;
    return [
      {
        figure: 'agent tool step: tool_use received → next request on the wire (p50)',
        baseline: `bare createMessage round trip p50 ${fmt(rt.median)} ms`,
        value: fmtStats(o, 'ms'),
        target: 'p50 ≤ 30 ms',
        met: o.median <= 30,
        note: `${o.runs} steps (4 turns × 15), read_file of a 100 KB file from disk, no approval wait; ${fmt(o.median / rt.median, 2)}× the bare round trip`,
      },
      {
        figure: 'agent tool step: tool_use received → next request on the wire (p95)',
        baseline: `bare createMessage round trip p95 ${fmt(rt.p95 ?? rt.max)} ms`,
        value: `${fmt(o.p95 ?? o.max)} ms`,
        target: 'p95 ≤ 100 ms',
        met: (o.p95 ?? o.max) <= 100,
      },
      {
        figure: 'prompt caching, 15-step agent turn: input billed at full price',
        baseline: `same turn without caching: ${c.fullWithout} input tokens`,
        value: `${fmt(pct, 2)} % (${c.fullWith} tokens)`,
        target: '≤ 30 %',
        met: pct <= 30,
        note: `cache reads ${c.cacheRead}, writes ${c.cacheWrite}; 15 reads of 8 KB files, 1.4k-token system prompt, 1,024-token cache minimum`,
      },
      {
        figure: 'prompt caching, 15-step agent turn: input priced (writes 1.25×, reads 0.1×)',
        baseline: 'same turn without caching (1×)',
        value: `${fmt(weighted, 1)} %`,
        target: '-',
        met: undefined,
        note: 'what the input of the turn costs with caching',
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runAgentBench()
    .then((rows) => {
      for (const r of rows)
        console.log(
          `${r.figure}: ${r.value} (baseline: ${r.baseline})${r.met === undefined ? '' : r.met ? ' [met]' : ' [NOT met]'}${r.note ? ` — ${r.note}` : ''}`,
        );
    })
    .catch((e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    });
}
