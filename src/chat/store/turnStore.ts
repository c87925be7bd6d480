// Where the agent side of the chat keeps what outlives a window (pure): globalState in the extension
// (vscode.Memento has this shape), a Map in the tests and the benchmarks.
export interface TurnStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** The strings stored under `key` (anything else there is ignored). */
export function storedStrings(store: TurnStore, key: string): string[] {
  const stored = store.get(key);
  return Array.isArray(stored) ? stored.filter((s): s is string => typeof s === 'string') : [];
}
