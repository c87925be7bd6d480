// Condensing, today against now in the same run: one emulated session of 30 agent turns × 10 read steps (300 steps)
// through the real SessionController, AgentTurns, loop and gateway client against the emulator on 127.0.0.1, each
// step reading a 20 KB file. Today: no condensing (earlier turns' compacted transcripts always sent). Now: the
// default threshold (0.8) of a 200,000-token window. Reported: bytes sent in all, bytes per request of the last
// five turns, condensing requests and their own tokens.
import { estimateTokens } from '../src/agent';
import { AgentTurns } from '../src/chat/agent/agentTurn';
import { readOnlyAgentHost } from './readOnlyAgentHost';
import { CONDENSE_PROMPT } from '../src/chat/condense/condense';
import { SessionController } from '../src/chat/session/session';
import { defaultConfig, startEmulator } from '../src/emulator';
import { createGatewayClient } from '../src/gateway';
import type { MessagesRequest } from '../src/gateway/types';
import type { BenchRow } from './table';

const TURNS = 30;
const STEPS = 10;
const FILE = 'export const value = 1; // a line of a large source file, padded to about sixty bytes\n'.repeat(240);

interface SessionFigures {
  bytes: number;
  lateBytesPerRequest: number;
  condensing: number;
  condensingTokens: number;
  requests: number;
  /** The most condensing requests any one turn made. */
  condensingPerTurn: number;
  /** Input tokens of all requests, as the request-size estimate counts them (src/agent/fit.ts). */
  tokens: number;
  /** Input tokens as the emulator billed them with prompt caching: full + writes × 1.25 + reads × 0.1. */
  pricedInput: number;
}

/** How a session treats its context: today's rule (main before this change) or the current defaults. */
interface Rules {
  threshold: number;
  earlierTranscripts?: number;
  clearOldResults?: boolean;
  /** The model's window (default 200,000 tokens) and text pasted into each question (default none). */
  contextWindow?: number;
  pasted?: string;
}

async function session(rules: Rules): Promise<SessionFigures> {
  const config = defaultConfig();
  config.messages.tokensPerSecond = 0;
  const emu = await startEmulator({ config });
  const real = createGatewayClient({ baseUrl: emu.url, apiKey: 'mg-agent-key-0008', maxRetries: 0 });
  const sent: Array<{ bytes: number; tokens: number; turn: number; condensing: boolean }> = [];
  let turn = 0;
  const client = {
    streamMessage: (body: MessagesRequest, opts?: Parameters<typeof real.streamMessage>[1]) => {
      sent.push({
        bytes: Buffer.byteLength(JSON.stringify(body)),
        tokens: estimateTokens(body),
        turn,
        condensing: body.system === CONDENSE_PROMPT,
      });
      return real.streamMessage(body, opts);
    },
  };
  const { host, state } = readOnlyAgentHost('/ws/big.ts', FILE);
  const agent = new AgentTurns({
    host,
    state,
    client: async () => ({ client: client as never, keyId: 'bench' }),
    condenseThreshold: () => rules.threshold,
    earlierTranscripts: rules.earlierTranscripts,
    clearOldResults: rules.clearOldResults,
    contextWindow: rules.contextWindow,
  });
  const files = new Map<string, string>();
  let id = 0;
  let finished = 0;
  const s = new SessionController({
    storage: {
      read: async (n) => files.get(n),
      write: async (n, d) => void files.set(n, d),
      remove: async (n) => void files.delete(n),
    },
    getClient: async () => undefined,
    errorCard: () => ({ title: 'error', detail: '', actions: [] }),
    defaults: () => ({ model: 'claude-demo-agent', maxTokens: 1024, systemPrompt: '' }),
    post: (m) => {
      if (m.type === 'streamFinished') finished++;
    },
    setBusy: () => undefined,
    newId: () => `b${id++}`,
    now: () => Date.now(),
    agent,
  });
  try {
    await s.load();
    s.setMode('agent');
    for (turn = 1; turn <= TURNS; turn++) {
      const before = finished;
      const refusal = s.send(
        `Task ${turn}: read it again.\n@tool read_file {"path":"big.ts"}\n@steps ${STEPS}${rules.pasted ?? ''}`,
      );
      if (refusal) throw new Error(refusal);
      while (finished === before) await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    await emu.close();
  }
  const late = sent.filter((r) => r.turn > TURNS - 5 && !r.condensing);
  const cards = s.store.active.messages.flatMap((m) => (m.agent?.condensed ? [m.agent.condensed] : []));
  return {
    bytes: sent.reduce((n, r) => n + r.bytes, 0),
    lateBytesPerRequest: late.reduce((n, r) => n + r.bytes, 0) / Math.max(1, late.length),
    condensing: sent.filter((r) => r.condensing).length,
    condensingTokens: cards.reduce((n, c) => n + c.tokens.input + c.tokens.output, 0),
    requests: sent.length,
    condensingPerTurn: Math.max(
      0,
      ...Array.from({ length: TURNS }, (_v, i) => sent.filter((r) => r.condensing && r.turn === i + 1).length),
    ),
    tokens: sent.reduce((n, r) => n + r.tokens, 0),
    pricedInput: s.store.active.messages.reduce((n, m) => {
      const t = m.agent?.tokens;
      return t ? n + t.input + 1.25 * t.cacheWrite + 0.1 * t.cacheRead : n;
    }, 0),
  };
}

export async function runAgentCondenseBench(): Promise<BenchRow[]> {
  const today = await session({ threshold: 0.8, earlierTranscripts: Number.POSITIVE_INFINITY, clearOldResults: false });
  const now = await session({ threshold: 0.8 });
  // A conversation that does reach the threshold: a 64,000-token model and a 12 KB log pasted into each question.
  const log = `\n${'2026-11-26T20:00:00Z INFO a pasted log line of the build, about sixty bytes\n'.repeat(200)}`;
  const crossing = await session({ threshold: 0.8, contextWindow: 64_000, pasted: log });
  const kb = (b: number) => `${(b / 1024).toFixed(0)} KB`;
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  return [
    {
      figure: `bytes sent by a ${TURNS * STEPS}-step session (${TURNS} turns × ${STEPS} reads of 20 KB)`,
      baseline: `${mb(today.bytes)} today`,
      value: `${mb(now.bytes)} (${((100 * now.bytes) / today.bytes).toFixed(0)} %)`,
      target: '≤ 50 % of today',
      met: now.bytes <= today.bytes / 2,
      note: `${now.requests} requests (today ${today.requests}); today = every earlier transcript sent, no clearing of older results, condensing at 0.8 of 200,000 tokens`,
    },
    {
      figure: 'bytes per request in the last 5 turns of that session',
      baseline: `${kb(today.lateBytesPerRequest)} today`,
      value: kb(now.lateBytesPerRequest),
      target: '≤ 50 KB',
      met: now.lateBytesPerRequest <= 50 * 1024,
    },
    {
      figure: 'input tokens saved in that session (request-size estimate)',
      baseline: `${n(today.tokens)} today`,
      value: `${n(now.tokens)} (${n(today.tokens - now.tokens)} saved)`,
      target: 'fewer',
      met: now.tokens < today.tokens,
    },
    {
      figure: 'input of that session priced with prompt caching (writes 1.25×, reads 0.1×), as the emulator billed it',
      baseline: `${n(today.pricedInput)} token-equivalents today`,
      value: `${n(now.pricedInput)} (${((100 * now.pricedInput) / today.pricedInput).toFixed(0)} %)`,
      target: 'not more than today',
      met: now.pricedInput <= today.pricedInput,
    },
    {
      figure: 'condensing requests in that session (their own tokens)',
      baseline: `${today.condensing} today (${n(today.condensingTokens)} tokens in + out)`,
      value: `${now.condensing} (${n(now.condensingTokens)} tokens in + out)`,
      target: '≤ 1 per crossing',
      met: now.condensing <= today.condensing,
      note: 'the history no longer reaches the threshold here',
    },
    {
      figure: 'the same session with a 64,000-token model and a 12 KB log pasted into each question',
      baseline: '-',
      value: `${crossing.condensing} condensing requests (${n(crossing.condensingTokens)} tokens in + out), at most ${crossing.condensingPerTurn} in a turn; last 5 turns ${kb(crossing.lateBytesPerRequest)} per request`,
      target: '≤ 1 per crossing',
      met: crossing.condensingPerTurn <= 1,
      note: 'a crossing is a turn whose first request would pass the threshold: it condenses once, before its first step',
    },
  ];
}
