// src/shared/dispose.ts: the one way the extension releases what it owns; src/shared/lazy.ts: first-use values;
// FeatureCommands: every command belongs to exactly one feature's table.
import * as assert from 'assert';
import { Disposable, DisposableStore, disposeAll, toDisposable } from '../../../src/shared/dispose';
import { lazy } from '../../../src/shared/lazy';
import { Commands, FeatureCommands } from '../../../src/shared/commands';

const recorder = () => {
  const log: string[] = [];
  return { log, item: (name: string) => toDisposable(() => log.push(name)) };
};

describe('disposal', () => {
  it('disposeAll disposes every item in order even when one throws, then rethrows the first error', () => {
    const { log, item } = recorder();
    const failing = {
      dispose: () => {
        log.push('b');
        throw new Error('b failed');
      },
    };
    const alsoFailing = {
      dispose: () => {
        throw new Error('c failed');
      },
    };
    assert.throws(() => disposeAll([item('a'), failing, alsoFailing, undefined, item('d')]), /b failed/);
    assert.deepStrictEqual(log, ['a', 'b', 'd']);
  });

  it('a store disposes what it holds once, and disposes at once what is added after', () => {
    const { log, item } = recorder();
    const store = new DisposableStore();
    store.add(item('a'));
    store.add(item('b'));
    store.dispose();
    store.dispose();
    assert.deepStrictEqual(log, ['a', 'b']);
    assert.strictEqual(store.isDisposed, true);
    store.add(item('late'));
    assert.deepStrictEqual(log, ['a', 'b', 'late']);
  });

  it('toDisposable runs its function once', () => {
    let runs = 0;
    const d = toDisposable(() => runs++);
    d.dispose();
    d.dispose();
    assert.strictEqual(runs, 1);
  });

  it('the Disposable base disposes what a subclass registered', () => {
    const { log, item } = recorder();
    class Owner extends Disposable {
      constructor() {
        super();
        this._register(item('listener'));
        this._register(item('registration'));
      }
    }
    new Owner().dispose();
    assert.deepStrictEqual(log, ['listener', 'registration']);
  });
});

describe('lazy', () => {
  it('builds on the first call only, and tries again after a failed build', () => {
    let builds = 0;
    let fail = true;
    const value = lazy(() => {
      builds++;
      if (fail) throw new Error('not yet');
      return { n: builds };
    });
    assert.strictEqual(value.loaded, false);
    assert.throws(() => value(), /not yet/);
    assert.strictEqual(value.loaded, false);
    fail = false;
    const first = value();
    assert.strictEqual(value(), first);
    assert.strictEqual(builds, 2);
    assert.strictEqual(value.loaded, true);
  });
});

describe('command tables', () => {
  it('every command id belongs to exactly one feature', () => {
    const owners = new Map<string, string[]>();
    for (const [feature, ids] of Object.entries(FeatureCommands))
      for (const id of ids) owners.set(id, [...(owners.get(id) ?? []), feature]);
    assert.deepStrictEqual(
      Object.values(Commands).filter((id) => owners.get(id)?.length !== 1),
      [],
    );
    assert.strictEqual([...owners.keys()].length, Object.values(Commands).length);
  });
});
