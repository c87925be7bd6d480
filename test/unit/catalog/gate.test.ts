// The catalog's fetch coalescing (FetchGate), the declared-model merge and the models.declared setting.
// The gate is what keeps a fetch → onDidChange → reader → fetch chain from ever becoming a loop.
import { strict as assert } from 'node:assert';
import { FetchGate } from '../../../src/catalog/gate';
import { readTable, toSnapshot } from '../../../src/catalog/cache';
import { parseConfig } from '../../../src/shared/config';

/** A promise with its resolve/reject in hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('catalog: fetch gate', () => {
  let now = 1_000_000;
  const clock = () => now;
  let calls = 0;
  beforeEach(() => {
    now = 1_000_000;
    calls = 0;
  });
  const counted =
    <T>(value: T) =>
    async () => {
      calls++;
      return value;
    };

  it('shares one running fetch between every caller, automatic or not', async () => {
    const gate = new FetchGate<string>({ minIntervalMs: 10_000, now: clock });
    const pending = deferred<string>();
    const first = gate.run(
      'k@u',
      () => {
        calls++;
        return pending.promise;
      },
      true,
    );
    const second = gate.run('k@u', counted('other'), false);
    const third = gate.run('k@u', counted('other'), true);
    assert.equal(first.kind, 'started');
    assert.equal(second.kind, 'joined');
    assert.equal(third.kind, 'joined');
    pending.resolve('list');
    assert.deepEqual(
      await Promise.all([first, second, third].map((d) => (d as { promise: Promise<string> }).promise)),
      ['list', 'list', 'list'],
    );
    assert.equal(calls, 1);
  });

  it('skips automatic fetches within the minimum interval however many are asked for (the loop case)', async () => {
    const gate = new FetchGate<string>({ minIntervalMs: 10_000, now: clock });
    await (gate.run('k@u', counted('list'), true) as { promise: Promise<string> }).promise;
    // A reader reacting to every change event, 10 000 times within a second: none of them fetches.
    for (let i = 0; i < 10_000; i++) {
      now += 0.1;
      assert.equal(gate.run('k@u', counted('list'), true).kind, 'skipped');
    }
    assert.equal(calls, 1);
    assert.ok(gate.waitBeforeAutomatic('k@u') > 0);
    now = 1_000_000 + 10_000;
    assert.equal(gate.run('k@u', counted('list'), true).kind, 'started', 'allowed again after the interval');
    assert.equal(calls, 2);
  });

  it('never skips a user action, and keeps contexts apart', async () => {
    const gate = new FetchGate<string>({ minIntervalMs: 10_000, now: clock });
    await (gate.run('k@u', counted('a'), true) as { promise: Promise<string> }).promise;
    assert.equal(gate.run('k@u', counted('a'), false).kind, 'started', 'Refresh Models always fetches');
    await new Promise((r) => setImmediate(r));
    assert.equal(gate.run('other@u', counted('b'), true).kind, 'started', 'another key or base URL is its own context');
  });

  it('answers a skipped automatic fetch with the last error, without a request', async () => {
    const gate = new FetchGate<string>({ minIntervalMs: 10_000, now: clock });
    const failure = new Error('HTTP 500');
    const first = gate.run(
      'k@u',
      async () => {
        calls++;
        throw failure;
      },
      true,
    ) as { promise: Promise<string> };
    await assert.rejects(first.promise, /HTTP 500/);
    const skipped = gate.run('k@u', counted('x'), true);
    assert.deepEqual(skipped, { kind: 'skipped', error: failure });
    assert.equal(calls, 1);
  });

  it('treats a clock that went backwards as recent (never a reason to fetch more)', async () => {
    const gate = new FetchGate<string>({ minIntervalMs: 10_000, now: clock });
    await (gate.run('k@u', counted('a'), true) as { promise: Promise<string> }).promise;
    now -= 3_600_000;
    assert.equal(gate.run('k@u', counted('a'), true).kind, 'skipped');
  });
});

describe('catalog: declared models', () => {
  const entry = {
    keyFingerprint: 'ffff0000',
    baseUrl: 'https://gw',
    fetchedAt: 5,
    models: [{ id: 'claude-a', extra: 1 }, { id: 'gpt-image-1' }],
  };

  it('appends declared ids that the list lacks, classified, and keeps listed entries as listed', () => {
    const snapshot = toSnapshot(entry, { 'my-painter': 'image' }, ['claude-a', 'my-painter', 'claude-b']);
    assert.deepEqual(
      snapshot.models.map((m) => [m.id, m.kind, m.declared === true]),
      [
        ['claude-a', 'chat', false],
        ['gpt-image-1', 'image', false],
        ['my-painter', 'image', true],
        ['claude-b', 'chat', true],
      ],
    );
    assert.equal(snapshot.models[0].raw.extra, 1);
    assert.equal(snapshot.listUnavailable, undefined);
  });

  it('marks and persists a gateway without a list', () => {
    const table = readTable({ a: { ...entry, models: [], unlisted: true }, b: { ...entry, unlisted: 'yes' } });
    assert.equal(table.a.unlisted, true);
    assert.equal(table.b.unlisted, undefined);
    const snapshot = toSnapshot(table.a, {}, ['claude-x']);
    assert.equal(snapshot.listUnavailable, true);
    assert.deepEqual(
      snapshot.models.map((m) => m.id),
      ['claude-x'],
    );
  });

  it('reads modelGateway.models.declared: trimmed, de-duplicated, bad entries and the excess reported', () => {
    assert.deepEqual(parseConfig({}).declaredModels, []);
    assert.deepEqual(parseConfig({ 'models.declared': [] }).declaredModels, []);
    const mixed = parseConfig({
      'models.declared': [' claude-a ', 'claude-a', '', 7, null, 'x'.repeat(300), 'bad\nid', 'gpt-image-1'],
    });
    assert.deepEqual(mixed.declaredModels, ['claude-a', 'gpt-image-1']);
    assert.match(mixed.problems!.join(' '), /5 entries are not a model id/);
    const huge = parseConfig({ 'models.declared': Array.from({ length: 50_000 }, (_, i) => `model-${i}`) });
    assert.equal(huge.declaredModels.length, 1000);
    assert.match(huge.problems!.join(' '), /only the first 1000/);
    const wrongType = parseConfig({ 'models.declared': 'claude-a' });
    assert.deepEqual(wrongType.declaredModels, []);
    assert.match(wrongType.problems!.join(' '), /an array of model ids/);
  });
});
