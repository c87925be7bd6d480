// Code completion replay (`npx tsx bench/completions.ts`): the source files of three npm packages nobody here wrote
// (ms, semver, yallist from node_modules) retyped character by character at 10–15 characters per second.
// Part 1, virtual time: the completion engine (src/completions/engine.ts) with the request budget of the provider
// (promptContext.ts) against the emulator's coder model (src/emulator/models/coder.ts) answering in a fixed 150 ms:
// requests per 100 keystrokes, what happens to them, bytes per request. Typing has pauses, as people's does: after a
// line 500–1500 ms, after , ; ( { a 200–600 ms pause one time in three (a seeded generator: the same run each time).
// Part 2, real sockets on 127.0.0.1: the gateway client against the emulator (completions.latencyMs 150): keystroke →
// request on the wire beyond the debounce, response → fill returned, and cancels: abort → the server sees the socket
// closed. Baseline in the same run: the same replay with completions off sends nothing (0 requests).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CompletionEngine, type EngineClock, type FillSite } from '../src/completions/engine';
import { clipAround, cursorShape, pathHeader } from '../src/completions/promptContext';
import { coderFill } from '../src/emulator/models/coder';
import { defaultConfig, startEmulator } from '../src/emulator';
import { createGatewayClient } from '../src/gateway';
import { fimBody } from '../src/gateway/completion/fim';
import { percentile } from '../src/shared/completionStats';
import type { BenchRow } from './table';

const FILES = ['ms/index.js', 'semver/classes/comparator.js', 'yallist/yallist.js'];
const LATENCY_MS = 150;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

class VirtualClock implements EngineClock {
  t = 0;
  private timers: Array<{ at: number; resolve: () => void }> = [];
  now(): number {
    return this.t;
  }
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const timer = { at: this.t + ms, resolve };
      this.timers.push(timer);
      signal.addEventListener('abort', () => {
        this.timers = this.timers.filter((x) => x !== timer);
        resolve();
      });
    });
  }
  async until(end: number): Promise<void> {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      const next = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.t = next.at;
      this.timers = this.timers.filter((x) => x !== next);
      next.resolve();
    }
    this.t = end;
    await new Promise((r) => setImmediate(r));
  }
}

interface ReplayFigures {
  keystrokes: number;
  sent: number;
  cancelledInFlight: number;
  cancelledWaiting: number;
  shown: number;
  accepted: number;
  withoutRequest: number;
  bytes: number[];
}

async function replay(file: string, text: string, seed: number): Promise<ReplayFigures> {
  const clock = new VirtualClock();
  const random = rng(seed);
  const bytes: number[] = [];
  let shape = cursorShape('', '');
  const engine = new CompletionEngine(async (site, signal) => {
    const body = fimBody({
      model: 'qwen2.5-coder-demo',
      mode: 'fim',
      prefix: site.prefix,
      suffix: site.suffix,
      maxTokens: shape.maxTokens,
      singleLine: shape.singleLine,
      context: pathHeader(file, 'javascript').trimEnd(),
    });
    bytes.push(Buffer.byteLength(JSON.stringify(body)));
    await clock.sleep(LATENCY_MS, signal);
    if (signal.aborted) throw new Error('aborted');
    return coderFill(String(body.prompt), site.suffix, shape.maxTokens, (body.stop as string[]) ?? []).text;
  }, clock);
  const f: ReplayFigures = {
    keystrokes: 0,
    sent: 0,
    cancelledInFlight: 0,
    cancelledWaiting: 0,
    shown: 0,
    accepted: 0,
    withoutRequest: 0,
    bytes,
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    i++;
    f.keystrokes++;
    const { prefix, suffix } = clipAround(text.slice(0, i), '');
    shape = cursorShape(prefix, suffix);
    const site: FillSite = { doc: file, prefix, suffix };
    let gap = 1000 / (10 + random() * 5);
    if (ch === '\n') gap += 500 + random() * 1000;
    else if (',;({'.includes(ch) && random() < 1 / 3) gap += 200 + random() * 400;
    let outcome: Awaited<ReturnType<CompletionEngine['provide']>> | undefined;
    if (!shape.skip) void engine.provide(site).then((o) => (outcome = o));
    await clock.until(clock.t + gap);
    if (outcome && 'text' in outcome && outcome.text.trim() !== '') {
      f.shown++;
      if (outcome.kind !== 'fetched') f.withoutRequest++;
      engine.markShown(site, outcome.text);
      // The user accepts (Tab) a suggestion that is exactly what comes next.
      if (text.startsWith(outcome.text, i) && !outcome.text.includes('\n')) {
        f.accepted++;
        i += outcome.text.length;
        engine.clearShown();
      }
    }
  }
  engine.cancel();
  await clock.until(clock.t + 1_000);
  f.sent = engine.counts.sent;
  f.cancelledInFlight = engine.counts.cancelledInFlight;
  f.cancelledWaiting = engine.counts.cancelledWaiting;
  return f;
}

interface SocketFigures {
  overhead: number[];
  toItems: number[];
  closeMs: number[];
  cancels: number;
}

async function sockets(): Promise<SocketFigures> {
  const config = defaultConfig();
  config.completions = { latencyMs: LATENCY_MS };
  const received: number[] = [];
  const finished: number[] = [];
  const closedAt: number[] = [];
  const emu = await startEmulator({
    config,
    onTiming: (t) => (t.phase === 'received' ? received : finished).push(t.at),
    log: (line) => {
      if (line.includes(' aborted ')) closedAt.push(performance.now());
    },
  });
  const client = createGatewayClient({ baseUrl: emu.url, apiKey: 'mg-coder-key-0011' });
  const text = fs.readFileSync(path.join('node_modules', FILES[0]), 'utf8');
  const out: SocketFigures = { overhead: [], toItems: [], closeMs: [], cancels: 0 };
  let debounceEnd = 0;
  const clock: EngineClock = {
    now: () => performance.now(),
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          debounceEnd = performance.now();
          resolve();
        }, ms);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
  const engine = new CompletionEngine(async (site, signal) => {
    const done = await client.completeCode!(
      {
        model: 'qwen2.5-coder-demo',
        mode: 'fim',
        prefix: site.prefix,
        suffix: site.suffix,
        maxTokens: 48,
        singleLine: true,
      },
      { signal },
    );
    return done.text;
  }, clock);
  const N = 30;
  for (let k = 0; k < N; k++) {
    const site: FillSite = { doc: `d${k}`, prefix: text.slice(0, 200 + k * 97), suffix: '' };
    const r0 = received.length;
    const outcome = await engine.provide(site);
    const done = performance.now();
    if (outcome.kind === 'fetched') {
      out.overhead.push(received[r0] - debounceEnd);
      out.toItems.push(done - finished[finished.length - 1]);
    }
  }
  for (let k = 0; k < N; k++) {
    const site: FillSite = { doc: `c${k}`, prefix: text.slice(0, 300 + k * 53), suffix: '' };
    const r0 = received.length;
    const c0 = closedAt.length;
    const first = engine.provide(site);
    while (received.length === r0) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 40));
    const abortAt = performance.now();
    // The next keystroke: it aborts the request in flight.
    const next = engine.provide({ ...site, doc: `n${k}` });
    out.cancels++;
    await first;
    engine.cancel();
    await next;
    for (let w = 0; w < 100 && closedAt.length === c0; w++) await new Promise((r) => setTimeout(r, 5));
    if (closedAt.length > c0) out.closeMs.push(closedAt[c0] - abortAt);
  }
  await emu.close();
  return out;
}

/** The bench's rows (`npm run bench -- completions`, or `npx tsx bench/completions.ts` for the table alone). */
export async function runCompletionBench(): Promise<BenchRow[]> {
  const totals: ReplayFigures = {
    keystrokes: 0,
    sent: 0,
    cancelledInFlight: 0,
    cancelledWaiting: 0,
    shown: 0,
    accepted: 0,
    withoutRequest: 0,
    bytes: [],
  };
  const perFile: string[] = [];
  for (const [k, file] of FILES.entries()) {
    const text = fs.readFileSync(path.join('node_modules', file), 'utf8');
    const f = await replay(file, text, 7 + k);
    perFile.push(`${file.split('/')[0]} ${((100 * f.sent) / f.keystrokes).toFixed(1)}`);
    totals.keystrokes += f.keystrokes;
    totals.sent += f.sent;
    totals.cancelledInFlight += f.cancelledInFlight;
    totals.cancelledWaiting += f.cancelledWaiting;
    totals.shown += f.shown;
    totals.accepted += f.accepted;
    totals.withoutRequest += f.withoutRequest;
    totals.bytes.push(...f.bytes);
  }
  const s = await sockets();
  const p50 = (xs: number[]): number => percentile(xs, 50) ?? NaN;
  const perHundred = (100 * totals.sent) / totals.keystrokes;
  const bytes = percentile(totals.bytes, 50) ?? NaN;
  return [
    {
      figure: 'completions: requests per 100 keystrokes (typing replay)',
      baseline: 'completions off: 0',
      value: `${perHundred.toFixed(1)} (${perFile.join(', ')})`,
      target: '≤ 12',
      met: perHundred <= 12,
      note: `${totals.keystrokes} keys; ${totals.cancelledInFlight} of ${totals.sent} cancelled in flight; shown ${totals.shown}, ${totals.withoutRequest} of them without a request`,
    },
    {
      figure: 'completions: cancelled requests whose socket the server saw closed',
      baseline: '-',
      value: `${s.closeMs.length} of ${s.cancels}; abort → closed p50 ${p50(s.closeMs).toFixed(1)} ms, max ${Math.max(...s.closeMs).toFixed(1)} ms`,
      target: '100 %, ≤ 5 ms',
      met: s.closeMs.length === s.cancels && p50(s.closeMs) <= 5,
    },
    {
      figure: 'completions: keystroke → request on the wire beyond the debounce (p50)',
      baseline: '-',
      value: `${p50(s.overhead).toFixed(1)} ms`,
      target: '≤ 3 ms',
      met: p50(s.overhead) <= 3,
    },
    {
      figure: 'completions: response → fill returned (p50)',
      baseline: '-',
      value: `${p50(s.toItems).toFixed(1)} ms`,
      target: '≤ 2 ms',
      met: p50(s.toItems) <= 2,
    },
    {
      figure: 'completions: bytes sent per request (p50)',
      baseline: '-',
      value: `${bytes} B`,
      target: '≤ 6 KB',
      met: bytes <= 6 * 1024,
    },
  ];
}

if (require.main === module) {
  void runCompletionBench().then((rows) => {
    for (const r of rows)
      console.log(`| ${r.figure} | ${r.baseline} | ${r.value} | ${r.target} | ${r.met ? 'yes' : 'no'} |`);
  });
}
