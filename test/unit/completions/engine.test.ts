// The completion engine (src/completions/engine.ts) on a virtual clock: debounce, one request in flight (a newer
// keystroke aborts the older request), typing through a shown suggestion, the cache, the adaptive debounce.
import * as assert from 'node:assert/strict';
import {
  adaptiveDebounce,
  CompletionEngine,
  DEBOUNCE_DEFAULT_MS,
  DEBOUNCE_MAX_MS,
  DEBOUNCE_MIN_MS,
  typedThrough,
  type EngineClock,
  type FillSite,
} from '../../../src/completions/engine';

/** A virtual clock: sleep() resolves when advance() passes its time (or at once when its signal aborts). */
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
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await flush();
      const next = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.t = next.at;
      this.timers = this.timers.filter((x) => x !== next);
      next.resolve();
    }
    this.t = end;
    await flush();
  }
}
const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

const site = (prefix: string, suffix = '\n'): FillSite => ({ doc: 'file:///a.ts', prefix, suffix });

function setup(latency = 150, answer = (s: FillSite) => `/*${s.prefix.length}*/`) {
  const clock = new VirtualClock();
  const sent: Array<{ site: FillSite; signal: AbortSignal }> = [];
  const engine = new CompletionEngine(async (s, signal) => {
    sent.push({ site: s, signal });
    await clock.sleep(latency, signal);
    if (signal.aborted) throw new Error('aborted');
    return answer(s);
  }, clock);
  return { clock, engine, sent };
}

describe('completion engine', () => {
  it('waits the debounce, then sends one request and returns its fill', async () => {
    const { clock, engine, sent } = setup();
    const p = engine.provide(site('const x = '));
    await clock.advance(DEBOUNCE_DEFAULT_MS - 1);
    assert.equal(sent.length, 0, 'nothing on the wire during the debounce');
    await clock.advance(1 + 150);
    const outcome = await p;
    assert.deepEqual(outcome, { kind: 'fetched', text: '/*10*/', latencyMs: 150 });
    assert.equal(sent.length, 1);
  });

  it('a keystroke during the debounce cancels without sending; one in flight is aborted (its signal fires)', async () => {
    const { clock, engine, sent } = setup();
    const first = engine.provide(site('a'));
    await clock.advance(50);
    const second = engine.provide(site('ab'));
    assert.deepEqual(await first, { kind: 'cancelled', sent: false });
    await clock.advance(DEBOUNCE_DEFAULT_MS + 10);
    assert.equal(sent.length, 1);
    const third = engine.provide(site('abc'));
    assert.equal(sent[0].signal.aborted, true, 'the request in flight was aborted by the next keystroke');
    assert.deepEqual(await second, { kind: 'cancelled', sent: true });
    await clock.advance(1_000);
    assert.equal((await third).kind, 'fetched');
    assert.deepEqual(
      { sent: engine.counts.sent, inFlight: engine.counts.cancelledInFlight, waiting: engine.counts.cancelledWaiting },
      { sent: 2, inFlight: 1, waiting: 1 },
    );
  });

  it('VS Code cancelling (the outer signal) aborts the request', async () => {
    const { clock, engine, sent } = setup();
    const outer = new AbortController();
    const p = engine.provide(site('x = '), outer.signal);
    await clock.advance(DEBOUNCE_DEFAULT_MS + 10);
    outer.abort();
    assert.equal(sent[0].signal.aborted, true);
    assert.deepEqual(await p, { kind: 'cancelled', sent: true });
  });

  it('typing through a shown suggestion consumes it without a request', async () => {
    const { clock, engine, sent } = setup(150, () => 'value, min), max');
    const p = engine.provide(site('Math.min(Math.max(', ');\n'));
    await clock.advance(1_000);
    const shown = await p;
    assert.equal(shown.kind, 'fetched');
    engine.markShown(site('Math.min(Math.max(', ');\n'), 'value, min), max');
    assert.deepEqual(await engine.provide(site('Math.min(Math.max(val', ');\n')), {
      kind: 'consumed',
      text: 'ue, min), max',
    });
    assert.equal(sent.length, 1);
    // Typing something else is not typing through.
    assert.equal(typedThrough({ ...site('a('), text: 'bc' }, site('a(x')), undefined);
  });

  it('the same site again is a cache hit (no request)', async () => {
    const { clock, engine, sent } = setup();
    const p = engine.provide(site('let y = '));
    await clock.advance(1_000);
    await p;
    assert.deepEqual(await engine.provide(site('let y = ')), { kind: 'cached', text: '/*8*/' });
    assert.equal(sent.length, 1);
  });

  it('the debounce follows the typing rhythm within its bounds', () => {
    assert.equal(adaptiveDebounce([]), DEBOUNCE_DEFAULT_MS);
    assert.equal(adaptiveDebounce([60, 60, 60, 60]), DEBOUNCE_MIN_MS);
    assert.equal(adaptiveDebounce([100, 100, 100]), 160);
    assert.equal(adaptiveDebounce([300, 300, 300]), DEBOUNCE_MAX_MS);
  });

  it('a failure is returned, not thrown', async () => {
    const clock = new VirtualClock();
    const engine = new CompletionEngine(() => Promise.reject(new Error('boom')), clock);
    const p = engine.provide(site('q'));
    await clock.advance(1_000);
    const outcome = await p;
    assert.equal(outcome.kind, 'failed');
  });
});
