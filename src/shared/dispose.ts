// One way to own and release resources (listeners, registrations, timers), instead of hand-written loops.
// Structurally compatible with vscode.Disposable, so it needs no vscode import and any layer may use it.

export interface IDisposable {
  dispose(): void;
}

/** A disposable that runs `fn` once. */
export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

/**
 * Disposes every item, in order, even when one throws; rethrows the first error afterwards (one failing
 * dispose must not leave the others registered).
 */
export function disposeAll(items: Iterable<IDisposable | undefined>): void {
  let first: { error: unknown } | undefined;
  for (const item of items) {
    try {
      item?.dispose();
    } catch (error) {
      first ??= { error };
    }
  }
  if (first) throw first.error;
}

/** Owns a set of disposables; disposing it disposes them in the order they were added. Adding after that disposes at once. */
export class DisposableStore implements IDisposable {
  private readonly items: IDisposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends IDisposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeAll(this.items.splice(0));
  }
}

/** Base class for objects that own disposables: `this._register(x)` ties x's lifetime to this object's. */
export abstract class Disposable implements IDisposable {
  private readonly _store = new DisposableStore();

  protected _register<T extends IDisposable>(item: T): T {
    return this._store.add(item);
  }

  protected get isDisposed(): boolean {
    return this._store.isDisposed;
  }

  dispose(): void {
    this._store.dispose();
  }
}
