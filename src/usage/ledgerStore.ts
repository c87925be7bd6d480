// The ledger file: JSON lines in the extension's global storage (survives reloads, shared by the windows of this
// machine). Loaded once, appended per entry, rewritten only when pruning dropped something. Writes are queued so
// two appends never interleave.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseLedger, pruneLedger, serializeLedger, type LedgerEntry } from '../shared/usageLedger';

export const LEDGER_FILE = 'usage-ledger.jsonl';

export class LedgerStore {
  private entries: LedgerEntry[] | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly onError: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  private get file(): string {
    return path.join(this.dir, LEDGER_FILE);
  }

  /** Every entry within the bounds, oldest first. */
  async all(): Promise<LedgerEntry[]> {
    if (!this.entries) {
      let text = '';
      try {
        text = await fs.readFile(this.file, 'utf8');
      } catch {
        // no ledger yet
      }
      const read = parseLedger(text);
      this.entries = pruneLedger(read, this.now());
      if (this.entries.length !== read.length) await this.rewrite();
    }
    return this.entries;
  }

  async append(entry: LedgerEntry): Promise<void> {
    const entries = await this.all();
    entries.push(entry);
    const pruned = pruneLedger(entries, this.now());
    if (pruned.length !== entries.length) {
      this.entries = pruned;
      return this.rewrite();
    }
    return this.write(() => fs.appendFile(this.file, serializeLedger([entry]), 'utf8'));
  }

  async clear(keyFingerprint?: string): Promise<void> {
    const entries = await this.all();
    this.entries = keyFingerprint === undefined ? [] : entries.filter((e) => e.key !== keyFingerprint);
    return this.rewrite();
  }

  private rewrite(): Promise<void> {
    const text = serializeLedger(this.entries ?? []);
    return this.write(() => fs.writeFile(this.file, text, 'utf8'));
  }

  private write(op: () => Promise<void>): Promise<void> {
    const next = this.queue.then(async () => {
      await fs.mkdir(this.dir, { recursive: true });
      await op();
    });
    this.queue = next.catch((error: unknown) => this.onError(`Usage ledger not saved: ${String(error)}`));
    return this.queue as Promise<void>;
  }
}
