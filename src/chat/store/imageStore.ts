// The chat's images (pure: the files come in through ImageStorage). Each image is stored once, named by the SHA-256
// of its bytes, under the extension's storage (never in the history's JSON, never in the page): a conversation's
// messages name the hash. Requests are built synchronously in several places (Ask, Agent, condensing), so the
// session loads the bytes of a conversation's images before each request and the builders read them from memory.
import { createHash } from 'node:crypto';
import { stripImageMetadata } from '../../shared/imageMetadata';
import type { ChatMessage } from '../../shared/protocol/chat';

/** Where the bytes live: the host adapter maps names to files under globalStorageUri/chat/images. */
export interface ImageStorage {
  read(name: string): Promise<Uint8Array | undefined>;
  write(name: string, bytes: Uint8Array): Promise<void>;
  remove(name: string): Promise<void>;
  /** Stored names with their last change (epoch ms). */
  list(): Promise<Array<{ name: string; mtime: number }>>;
}

/** Base64 characters kept in memory at most (the images of a few long conversations); the oldest are dropped. */
const CACHE_CHARS = 96 * 1024 * 1024;
/** Stored images no conversation names are removed once this old (a pending chip of another window is younger). */
const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;
const HASH = /^[0-9a-f]{64}$/;

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The hashes of the images these messages hold. */
export function imageHashes(messages: ReadonlyArray<Pick<ChatMessage, 'attachments'>>): Set<string> {
  const out = new Set<string>();
  for (const m of messages) for (const a of m.attachments ?? []) if (a.image) out.add(a.image.hash);
  return out;
}

export class ImageStore {
  private readonly cache = new Map<string, string>();
  private cached = 0;

  constructor(private readonly storage: ImageStorage) {}

  /** Stores the bytes (once per content) and returns their hash. */
  async put(bytes: Uint8Array): Promise<string> {
    const hash = sha256Hex(bytes);
    if (!this.cache.has(hash)) await this.storage.write(hash, bytes);
    this.remember(hash, Buffer.from(bytes).toString('base64'));
    return hash;
  }

  /** Reads into memory the stored images of these hashes not there yet (a missing file stays missing). */
  async preload(hashes: Iterable<string>): Promise<void> {
    for (const hash of hashes) {
      const known = this.cache.get(hash);
      if (known !== undefined) {
        this.remember(hash, known);
        continue;
      }
      if (!HASH.test(hash)) continue;
      const bytes = await this.storage.read(hash);
      // An image stored before metadata was stripped on arrival is sent without it all the same.
      if (bytes && sha256Hex(bytes) === hash)
        this.remember(hash, Buffer.from(stripImageMetadata(bytes)).toString('base64'));
    }
  }

  /** The base64 of a loaded image (undefined: never stored here, removed, or not preloaded). */
  base64(hash: string): string | undefined {
    return this.cache.get(hash);
  }

  /** Removes the images of `hashes` that `stillUsed` does not hold (a deleted conversation's own images). */
  async release(hashes: Iterable<string>, stillUsed: ReadonlySet<string>): Promise<void> {
    for (const hash of hashes) {
      if (stillUsed.has(hash)) continue;
      this.forget(hash);
      await this.storage.remove(hash);
    }
  }

  /** Removes stored images no conversation names that are older than a day (deleted while another window held them). */
  async removeOrphans(used: ReadonlySet<string>, now: number): Promise<void> {
    for (const { name, mtime } of await this.storage.list()) {
      if (HASH.test(name) && !used.has(name) && now - mtime > ORPHAN_AGE_MS && !this.cache.has(name))
        await this.storage.remove(name);
    }
  }

  private remember(hash: string, base64: string): void {
    this.forget(hash);
    this.cache.set(hash, base64);
    this.cached += base64.length;
    for (const [oldest, data] of this.cache) {
      if (this.cached <= CACHE_CHARS || oldest === hash) break;
      this.cache.delete(oldest);
      this.cached -= data.length;
    }
  }

  private forget(hash: string): void {
    const data = this.cache.get(hash);
    if (data === undefined) return;
    this.cache.delete(hash);
    this.cached -= data.length;
  }
}
