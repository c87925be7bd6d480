// Webview figures of `npm run bench` (issue 9): the real chat bundle (dist/webview/chat.js) in headless
// Chromium, served with the production CSP and fed by a harness that plays the host's messages
// (the VS Code IPC hop between extension host and webview is not part of these figures).
// Run alone: npx tsx bench/webview.ts
import { cpus, loadavg } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import {
  buildChatBundle,
  launchChromium,
  openChatPage,
  snapshot,
  msg,
  startPageServer,
} from '../test/support/chatPage';
import type { ChatMessage } from '../src/shared/protocol/chat';
import { fmt, fmtStats, stats, type BenchRow } from './table';
import { FRAME_COUNTER_SCRIPT, streamedAnswerWords } from './chatStreamingPage';
import { runAndPrintRows } from './runAndPrintRows';

const FRAME_MS = 16.7;
const ROUNDS = 3;

// In-page helpers, as a string (functions passed through tsx would carry its helpers along).
const PAGE_HELPERS = `${FRAME_COUNTER_SCRIPT}
window.__afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => resolve(performance.now());
  channel.port2.postMessage(0);
}));
window.__firstDelta = async (runs) => {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const id = 'fd' + i;
    window.__play({ type: 'messageAppended', conversationId: 'c1', message: { id, role: 'assistant', text: '', status: 'streaming', createdAt: 0 } });
    await window.__afterPaint();
    await new Promise((r) => setTimeout(r, 5));
    const t0 = performance.now();
    window.__play({ type: 'streamDelta', conversationId: 'c1', messageId: id, text: 'Hello' });
    const painted = await window.__afterPaint();
    if (!document.querySelector('.message[data-id="' + id + '"] .body').textContent.includes('Hello')) throw new Error('delta not rendered');
    samples.push(painted - t0);
    window.__play({ type: 'streamFinished', conversationId: 'c1', messageId: id, status: 'complete', stopReason: 'end_turn' });
  }
  return samples;
};
window.__keystrokes = () => {
  window.__keySamples = [];
  document.querySelector('.composer .input').addEventListener('keydown', (event) => {
    const start = event.timeStamp;
    window.__afterPaint().then((painted) => window.__keySamples.push(painted - start));
  });
};
window.__stream = (tokensPerSecond, seconds, words) => new Promise((resolve) => {
  window.__play({ type: 'messageAppended', conversationId: 'c1', message: { id: 'st', role: 'assistant', text: '', status: 'streaming', createdAt: 0 } });
  const started = performance.now();
  const frames = window.__countFrames(started, seconds);
  let sent = 0;
  // The host sends a batch every ~24 ms (DeltaBatcher), each with the tokens due by then.
  const tick = () => {
    const now = performance.now();
    const due = Math.floor((now - started) / 1000 * tokensPerSecond);
    let text = '';
    for (; sent < due; sent++) text += words[sent % words.length];
    if (text) window.__play({ type: 'streamDelta', conversationId: 'c1', messageId: 'st', text });
    if (now - started < seconds * 1000) setTimeout(tick, 24);
    else {
      window.__play({ type: 'streamFinished', conversationId: 'c1', messageId: 'st', status: 'complete', stopReason: 'end_turn' });
      resolve({ ...frames.result(), tokens: sent, chars: document.querySelector('.message[data-id="st"]').textContent.length });
    }
  };
  setTimeout(tick, 24);
});
window.__heap = () => (performance.memory ? performance.memory.usedJSHeapSize : NaN);
`;

/** A realistic answer: paragraphs, a list, inline code and a fenced block. */
function answerText(i: number): string {
  return (
    `Answer ${i}: here is **some** text with \`inline code\` and a [link](https://example.com/${i}).\n\n` +
    `- point one\n- point two\n- point three\n\n\`\`\`ts\nfunction f${i}(x: number): number {\n  return x * ${i};\n}\n\`\`\`\n\nThat is all for ${i}.`
  );
}

function longConversation(count: number): ChatMessage[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? msg(`m${i}`, 'user', `Question ${i}: how does f${i} work?`)
      : msg(`m${i}`, 'assistant', answerText(i)),
  );
}

async function withPage<T>(
  browser: Browser,
  url: string,
  messages: ChatMessage[],
  run: (page: Page) => Promise<T>,
): Promise<T> {
  const chat = await openChatPage(browser, url);
  try {
    await chat.page.addScriptTag({ content: PAGE_HELPERS }).catch(async () => chat.page.evaluate(PAGE_HELPERS));
    await chat.play({ type: 'snapshot', snapshot: snapshot(messages) });
    return await run(chat.page);
  } finally {
    await chat.close();
  }
}

async function firstDelta(browser: Browser, url: string): Promise<number[]> {
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    samples.push(
      ...(await withPage(
        browser,
        url,
        longConversation(20),
        (page) => page.evaluate('window.__firstDelta(60)') as Promise<number[]>,
      )),
    );
  }
  return samples;
}

/** Keystroke samples of one page load with `count` messages (also the empty-conversation baseline). */
export async function keystrokesFor(browser: Browser, url: string, count: number, keys = 60): Promise<number[]> {
  return withPage(browser, url, longConversation(count), async (page) => {
    await page.evaluate('window.__afterPaint()');
    await page.evaluate('window.__keystrokes()');
    await page.locator('.composer .input').focus();
    for (let i = 0; i < keys; i++) await page.keyboard.type('abcdefghij'[i % 10], { delay: 30 });
    await page.waitForTimeout(100);
    return page.evaluate('window.__keySamples') as Promise<number[]>;
  });
}

async function keystrokes(browser: Browser, url: string, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) samples.push(...(await keystrokesFor(browser, url, count)));
  return samples;
}

/** JS heap of a 1,000-message page: after load, after typing, after streaming five 10 KB answers. */
async function heapFigures(browser: Browser, url: string): Promise<number[]> {
  return withPage(browser, url, longConversation(1000), async (page) => {
    const heap = async () => {
      await page.evaluate('window.gc && window.gc()');
      return page.evaluate('window.__heap()') as Promise<number>;
    };
    const figures = [await heap()];
    await page.locator('.composer .input').focus();
    for (let i = 0; i < 50; i++) await page.keyboard.type('x');
    figures.push(await heap());
    for (let i = 0; i < 5; i++)
      await page.evaluate(`window.__stream(2000, 1, ${JSON.stringify(streamedAnswerWords())})`);
    figures.push(await heap());
    return figures;
  });
}

async function streamingFps(
  browser: Browser,
  url: string,
): Promise<Array<{ fps: number; worst: number; long: number; tokens: number }>> {
  const results = [];
  for (let round = 0; round < ROUNDS; round++) {
    results.push(
      await withPage(
        browser,
        url,
        longConversation(50),
        (page) =>
          page.evaluate(`window.__stream(2000, 5, ${JSON.stringify(streamedAnswerWords())})`) as Promise<{
            fps: number;
            worst: number;
            long: number;
            tokens: number;
          }>,
      ),
    );
  }
  return results;
}

/** The webview rows of the benchmark table. */
export async function runWebviewBench(): Promise<BenchRow[]> {
  await buildChatBundle(true);
  const server = await startPageServer();
  const browser = await launchChromium({ args: ['--enable-precise-memory-info', '--js-flags=--expose-gc'] });
  try {
    const fd = stats(await firstDelta(browser, server.url));
    const ks = stats(await keystrokes(browser, server.url, 1000));
    const ks0 = stats(await keystrokes(browser, server.url, 0));
    const heap = await heapFigures(browser, server.url);
    const fps = await streamingFps(browser, server.url);
    const fpsStats = stats(fps.map((r) => r.fps));
    const heapMb = (n: number) => fmt(n / 1024 / 1024, 1);
    const where = 'headless Chromium, real chat bundle, host messages played by a harness';
    return [
      {
        figure: 'first delta → painted in the chat webview (p50)',
        baseline: `one frame ${FRAME_MS} ms`,
        value: fmtStats(fd, 'ms'),
        target: 'p50 ≤ 16 ms',
        met: fd.median <= 16,
        note: `${fd.runs} runs; ${where}`,
      },
      {
        figure: 'first delta → painted in the chat webview (p99)',
        baseline: `one frame ${FRAME_MS} ms`,
        value: `${fmt(fd.p99 ?? NaN)} ms`,
        target: 'p99 ≤ 50 ms',
        met: (fd.p99 ?? Infinity) <= 50,
        note: `${fd.runs} runs`,
      },
      {
        figure: '1,000-message conversation: keystroke → paint in the input (p95)',
        baseline: `one frame ${FRAME_MS} ms; empty conversation p95 ${fmt(ks0.p95 ?? NaN)} ms`,
        value: `${fmtStats(ks, 'ms')}; p95 ${fmt(ks.p95 ?? NaN)} ms`,
        target: 'p95 ≤ 16 ms',
        met: (ks.p95 ?? Infinity) <= 16,
        note: `${ks.runs} keystrokes over ${ROUNDS} page loads; measured from the key event to the frame after it is painted, so it includes the wait for the next frame (up to 16.7 ms), as the empty-conversation baseline shows`,
      },
      {
        figure: '1,000-message conversation: JS heap',
        baseline: `after load ${heapMb(heap[0])} MB`,
        value: `${heapMb(heap[1])} MB after 50 keys, ${heapMb(heap[2])} MB after 5 streamed answers`,
        target: 'stable',
        met: heap[2] - heap[0] < 20 * 1024 * 1024,
        note: 'after gc',
      },
      {
        figure: 'streaming 2,000 tokens/s into the view',
        baseline: '60 fps display',
        value: `${fmtStats(fpsStats, 'fps')}`,
        target: '≥ 55 fps',
        met: fpsStats.median >= 55,
        note: `met on the median; 5 s per run, ${ROUNDS} runs, load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores; worst frame gap ${fmt(Math.max(...fps.map((r) => r.worst)))} ms, frames > 25 ms: ${fps.map((r) => r.long).join('/')}`,
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}

if (require.main === module) runAndPrintRows(runWebviewBench);
