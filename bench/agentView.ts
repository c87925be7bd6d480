// The chat view while an agent turn streams (issue 14): the real chat bundle in headless Chromium (production
// CSP), fed the host messages an agent turn sends — text deltas at 2,000 tokens/s with tool cards between the
// texts (each card proposed at its place in the text, then running with live output, then done with a 2 KB
// result), one usage line per step — and, in the same run and page setup, the same text streamed with no cards
// (plain Ask streaming) as the baseline. Frames are counted with requestAnimationFrame.
// Run alone: npx tsx bench/agentView.ts   (section "agent view" of npm run bench)
import { cpus, loadavg } from 'node:os';
import type { Browser } from 'playwright-core';
import {
  buildChatBundle,
  launchChromium,
  msg,
  openChatPage,
  snapshot,
  startPageServer,
} from '../test/support/chatPage';
import type { ChatMessage } from '../src/shared/protocol/chat';
import { fmt, fmtStats, stats, type BenchRow } from './table';
import { FRAME_COUNTER_SCRIPT, streamedAnswerWords } from './chatStreamingPage';
import { runAndPrintRows } from './runAndPrintRows';

const ROUNDS = 3;
const SECONDS = 5;
const TOKENS_PER_SECOND = 2000;
/** A step's text, then its cards: every this many tokens (about 10 steps in 5 s). */
const TOKENS_PER_STEP = 1000;
const CARDS_PER_STEP = 2;

// In-page driver, as a string (functions passed through tsx would carry its helpers along).
const DRIVER = `${FRAME_COUNTER_SCRIPT}
window.__agentStream = (tokensPerSecond, seconds, words, tokensPerStep, cardsPerStep, result) => new Promise((resolve) => {
  const withCards = tokensPerStep > 0;
  window.__play({ type: 'messageAppended', conversationId: 'c1', message: { id: 'st', role: 'assistant', text: '', status: 'streaming', createdAt: 0,
    ...(withCards ? { agent: { turnId: 'turn-st', tools: [], steps: [] } } : {}) } });
  const started = performance.now();
  const frames = window.__countFrames(started, seconds);
  let sent = 0, textLength = 0, step = 0, cards = 0;
  const pending = [];
  const card = (id, status, extra) => ({ type: 'agentTool', conversationId: 'c1', messageId: 'st',
    tool: { id, step, name: id.endsWith('a') ? 'read_file' : 'run_command', summary: id.endsWith('a') ? 'src/module' + step + '.ts' : 'npm test -- --grep step' + step, status, textAt: extra.textAt, ...extra } });
  // The host batches deltas every ~24 ms (DeltaBatcher) and posts each card change as its own message.
  const tick = () => {
    const now = performance.now();
    // Card changes due from earlier ticks (running with output, then done), one tick apart as the tools answer.
    for (const m of pending.splice(0)) window.__play(m);
    const due = Math.floor((now - started) / 1000 * tokensPerSecond);
    let text = '';
    for (; sent < due; sent++) {
      text += words[sent % words.length];
      if (withCards && (sent + 1) % tokensPerStep === 0) {
        if (text) { window.__play({ type: 'streamDelta', conversationId: 'c1', messageId: 'st', text }); textLength += text.length; text = ''; }
        step++;
        for (let c = 0; c < cardsPerStep; c++) {
          const id = 'toolu_' + step + (c === 0 ? 'a' : 'b');
          const at = textLength;
          window.__play(card(id, 'proposed', { textAt: at }));
          pending.push(card(id, 'running', { textAt: at, progress: 'running… ' + step }));
          setTimeout(() => window.__play(card(id, 'done', { textAt: at, result })), 48);
          cards++;
        }
        window.__play({ type: 'agentUsage', conversationId: 'c1', messageId: 'st', step: { step, tokens: { input: 900, output: 120, cacheRead: 14000, cacheWrite: 800 } },
          turn: { input: 900 * step, output: 120 * step, cacheRead: 14000 * step, cacheWrite: 800 * step } });
      }
    }
    if (text) { window.__play({ type: 'streamDelta', conversationId: 'c1', messageId: 'st', text }); textLength += text.length; }
    if (now - started < seconds * 1000) setTimeout(tick, 24);
    else {
      window.__play({ type: 'streamFinished', conversationId: 'c1', messageId: 'st', status: 'complete', stopReason: 'end_turn' });
      const shown = document.querySelectorAll('.message[data-id="st"] .tool-card').length;
      resolve({ ...frames.result(), tokens: sent, cards, shown });
    }
  };
  setTimeout(tick, 24);
});
`;

/** Tool output as a card shows it: 2 KB of file text. */
const RESULT = Array.from({ length: 60 }, (_, i) => `line ${i}: export const value${i} = compute(${i}); // some source`)
  .join('\n')
  .slice(0, 2048);

function conversation(count: number): ChatMessage[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? msg(`m${i}`, 'user', `Question ${i}`)
      : msg(`m${i}`, 'assistant', `Answer ${i}: **text**, \`code\`.\n\n- a\n- b`),
  );
}

interface Run {
  fps: number;
  worst: number;
  long: number;
  tokens: number;
  cards: number;
  shown: number;
}

async function once(browser: Browser, url: string, withCards: boolean): Promise<Run> {
  const chat = await openChatPage(browser, url);
  try {
    await chat.page.addScriptTag({ content: DRIVER }).catch(async () => chat.page.evaluate(DRIVER));
    await chat.play({ type: 'snapshot', snapshot: snapshot(conversation(50), { mode: 'agent', agent: { ok: true } }) });
    const args = [
      TOKENS_PER_SECOND,
      SECONDS,
      streamedAnswerWords(),
      withCards ? TOKENS_PER_STEP : 0,
      CARDS_PER_STEP,
      RESULT,
    ];
    return (await chat.page.evaluate(`window.__agentStream(...${JSON.stringify(args)})`)) as Run;
  } finally {
    await chat.close();
  }
}

/** The "agent view" rows of the benchmark table. */
export async function runAgentViewBench(): Promise<BenchRow[]> {
  await buildChatBundle(true);
  const server = await startPageServer();
  const browser = await launchChromium();
  try {
    const agent: Run[] = [];
    const plain: Run[] = [];
    // Alternated, so that load changes during the run hit both alike.
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(await once(browser, server.url, false));
      agent.push(await once(browser, server.url, true));
    }
    if (agent.some((r) => r.shown !== r.cards || r.cards === 0))
      throw new Error(`cards shown ${agent.map((r) => `${r.shown}/${r.cards}`).join(', ')}`);
    const a = stats(agent.map((r) => r.fps));
    const p = stats(plain.map((r) => r.fps));
    return [
      {
        figure: 'agent turn streaming into the chat view (text + tool cards)',
        baseline: `same text without cards (Ask streaming) ${fmtStats(p, 'fps')}`,
        value: `${fmtStats(a, 'fps')}; ${fmt(a.median / p.median, 2)}× the baseline`,
        target: '≥ 55 fps',
        met: a.median >= 55,
        note: `met on the median; ${TOKENS_PER_SECOND} tokens/s for ${SECONDS} s, a step every ${TOKENS_PER_STEP} tokens with ${CARDS_PER_STEP} cards (proposed → running → done, 2 KB result) and a usage line: ${agent[0].cards} cards per run; ${ROUNDS} runs each, load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores; worst frame gap ${fmt(Math.max(...agent.map((r) => r.worst)))} ms (baseline ${fmt(Math.max(...plain.map((r) => r.worst)))} ms), frames > 25 ms: ${agent.map((r) => r.long).join('/')} (baseline ${plain.map((r) => r.long).join('/')})`,
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}

if (require.main === module) runAndPrintRows(runAgentViewBench);
