// Sub-agents (src/agent/subagents.ts) against the same work done inline: three folders of six files each, looked at
// by one agent step after step (list, then five reads per folder), or by three read-only explorers started in one
// message (each does one folder's steps) while the parent waits for their three reports. The chat's own turn runner
// (AgentTurns, with the benches' read-only host: readOnlyAgentHost.ts), the real loop and gateway client against the
// emulator's scripted agent (its directives, src/emulator/models/agentScript.ts), every request held 150 ms by the emulator
// and streamed as fast as it can (150 ms is the model's whole time per step, as the issue's bench says; at the
// emulator's default 400 tokens/s the parent's first step, which writes the three tasks, took ~0.6 s more). Figures:
// wall time of the turn, the parent's input tokens over the turn (what its context grows by), and each sub-agent's
// overhead from its start to its first request.
// Run alone with `npx tsx bench/subagents.ts`; `npm run bench -- subagents` runs it as the "subagents" section.
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SUBAGENT_TOOL_NAME, type AgentTurnOptions, type Tool } from '../src/agent';
import { AgentTurns } from '../src/chat/agent/agentTurn';
import { NO_IMAGES } from '../src/chat/ask/requestBuilder';
import { startEmulator } from '../src/emulator';
import type { AgentTurnInfo, ChatMessage } from '../src/shared/protocol/chat';
import { createGatewayClient } from '../src/gateway';
import { totalTokens } from '../src/shared/tokens';
import { readOnlyAgentHost } from './readOnlyAgentHost';
import { fmt, fmtStats, stats, type BenchRow } from './table';

const AGENT_KEY = 'mg-agent-key-0008';
const MODEL = 'claude-demo-agent';
const STEP_MS = 150;
const FOLDERS = ['alpha', 'beta', 'gamma'];
const READS = 5;
const RUNS = 3;

function workspace(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mg-bench-subagents-')));
  for (const f of FOLDERS) {
    mkdirSync(join(root, f));
    for (let i = 0; i < READS + 1; i++)
      writeFileSync(
        join(root, f, `file${i}.ts`),
        Array.from({ length: 60 }, (_v, n) => `export const ${f}${i}_${n} = ${n}; // ${f} file ${i} line ${n}`).join(
          '\n',
        ),
      );
  }
  return root;
}

function tools(root: string): Array<Tool<never>> {
  const read: Tool<{ path: string }> = {
    name: 'read_file',
    description: 'Read a file of the workspace',
    approvalClass: 'read',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    target: (input) => ({ paths: [`/ws/${String(input.path)}`] }),
    invoke: async (input) => ({ content: await readFile(join(root, String(input.path)), 'utf8') }),
  };
  const list: Tool<{ path: string }> = {
    name: 'list_directory',
    description: 'List a folder of the workspace',
    approvalClass: 'read',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    target: (input) => ({ paths: [`/ws/${String(input.path)}`] }),
    invoke: async (input) => ({ content: readdirSync(join(root, String(input.path))).join('\n') }),
  };
  return [read, list] as unknown as Array<Tool<never>>;
}

/** One folder's steps as directives: list it, then read five of its files. */
function folderSteps(folder: string): string[] {
  return [
    `@tool list_directory {"path":"${folder}"}`,
    ...Array.from({ length: READS }, (_v, i) => `@tool read_file {"path":"${folder}/file${i}.ts"}`),
  ];
}

interface Run {
  ms: number;
  parentInput: number;
  overheads: number[];
}

async function run(mode: 'inline' | 'subagents', root: string, url: string): Promise<Run> {
  const real = createGatewayClient({ baseUrl: url, apiKey: AGENT_KEY, maxRetries: 0 });
  const started = new Map<string, number>();
  const overheads: number[] = [];
  const client: AgentTurnOptions['client'] = {
    streamMessage: (body, opts) => {
      // A child's first request holds its task only (as blocks once a cache breakpoint is set on it).
      const first = body.messages.length === 1 ? body.messages[0].content : undefined;
      const task = typeof first === 'string' ? first : first?.map((b) => (b.type === 'text' ? b.text : '')).join('');
      const at = task === undefined ? undefined : started.get(task);
      if (at !== undefined && opts?.usageKind === 'subagent') overheads.push(performance.now() - at);
      return real.streamMessage(body, opts);
    },
  };
  const { host, state } = readOnlyAgentHost('', '', tools(root) as unknown as Tool[]);
  const agent = new AgentTurns({
    host,
    state,
    client: async () => ({ client, keyId: 'bench' }),
    subagents: () => ({ permission: mode === 'subagents' ? 'read-only' : 'off', maxParallel: 3 }),
  });
  const text =
    mode === 'inline'
      ? ['Look at the three folders.', ...FOLDERS.flatMap(folderSteps)].join('\n')
      : [
          'Look at the three folders with sub-agents.',
          `@tools-parallel ${FOLDERS.map(
            (f) => `${SUBAGENT_TOOL_NAME} ${JSON.stringify({ task: [`Look at ${f}.`, ...folderSteps(f)].join('\n') })}`,
          ).join(' ')}`,
        ].join('\n');
  const message = {
    id: 'a1',
    role: 'assistant',
    text: '',
    status: 'streaming',
    createdAt: 0,
    agent: { turnId: `bench-${mode}`, tools: [], steps: [] },
  } as ChatMessage & { agent: AgentTurnInfo };
  const t0 = performance.now();
  const outcome = await agent.run({
    conversationId: 'bench',
    message,
    history: [{ id: 'u1', role: 'user', text, status: 'complete', createdAt: 0 }],
    images: NO_IMAGES,
    mode: 'agent',
    instructions: '',
    settings: { model: MODEL, maxTokens: 1024, systemPrompt: '' },
    signal: new AbortController().signal,
    sink: {
      // A sub-agent's card is posted when it starts: its overhead runs from there to its first request.
      post: (m) => {
        if (m.type === 'agentSubagent' && m.subagent.steps === 0 && !started.has(m.subagent.task))
          started.set(m.subagent.task, performance.now());
      },
      text: () => undefined,
      now: () => Date.now(),
    },
  });
  const ms = performance.now() - t0;
  if (outcome.status !== 'complete' || message.agent.end?.reason !== 'end_turn')
    throw new Error(`${mode}: the turn ended with ${message.agent.end?.reason ?? outcome.status}`);
  return { ms, parentInput: totalTokens({ ...message.agent.tokens!, output: 0 }), overheads };
}

export async function runSubagentsBench(): Promise<BenchRow[]> {
  const root = workspace();
  const emu = await startEmulator();
  emu.setFaults(AGENT_KEY, { delayMs: STEP_MS, tokensPerSecond: 0 });
  try {
    const inline: Run[] = [];
    const sub: Run[] = [];
    await run('subagents', root, emu.url); // warm-up (connections, JIT)
    for (let i = 0; i < RUNS; i++) {
      inline.push(await run('inline', root, emu.url));
      sub.push(await run('subagents', root, emu.url));
    }
    const inlineMs = stats(inline.map((r) => r.ms)).median;
    const subMs = stats(sub.map((r) => r.ms)).median;
    const inlineIn = stats(inline.map((r) => r.parentInput)).median;
    const subIn = stats(sub.map((r) => r.parentInput)).median;
    const overhead = stats(sub.flatMap((r) => r.overheads));
    const timeRatio = subMs / inlineMs;
    const tokenRatio = subIn / inlineIn;
    const note = `3 folders × (1 list + ${READS} reads); emulator ${STEP_MS} ms per request, streamed at once; median of ${RUNS} runs`;
    return [
      {
        figure: 'sub-agents: wall time of the turn, 3 read-only explorers in parallel vs the same work inline',
        baseline: `${fmt(inlineMs, 0)} ms inline`,
        value: `${fmt(subMs, 0)} ms (${fmt(timeRatio, 2)}×)`,
        target: '≤ 0.5×',
        met: timeRatio <= 0.5,
        note,
      },
      {
        figure: "sub-agents: the parent's input tokens over the turn, explorers vs inline",
        baseline: `${Math.round(inlineIn).toLocaleString('en-US')} inline`,
        value: `${Math.round(subIn).toLocaleString('en-US')} (${fmt(tokenRatio, 2)}×)`,
        target: '≤ 0.4×',
        met: tokenRatio <= 0.4,
        note: 'the parent gets one capped report per explorer instead of every file',
      },
      {
        figure: 'sub-agents: overhead per sub-agent, its start to its first request (min / p50 / max)',
        baseline: '—',
        value: fmtStats(overhead, 'ms', 2),
        target: 'p50 ≤ 20 ms',
        met: overhead.median <= 20,
        note: `${overhead.runs} sub-agents`,
      },
    ];
  } finally {
    await emu.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void runSubagentsBench().then((rows) => console.log(JSON.stringify(rows, null, 2)));
}
