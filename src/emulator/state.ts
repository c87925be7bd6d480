// Mutable emulator state: keys and balances, faults, request log, billable counters, tasks, files, rate windows.

import { randomBytes } from 'node:crypto';
import { PromptCache } from './promptCache';
import type { EmulatorConfig, Faults, KeyConfig, RequestLogEntry, RouteName } from './types';

export interface ImageItem {
  png: Buffer;
  revisedPrompt: string;
}

export interface Task {
  id: string;
  key: string;
  route: RouteName;
  createdAt: number;
  durationMs: number;
  fails: boolean;
  expiresAt: number;
  /** Produces the images once, when the task is first read as completed. */
  render: () => ImageItem[];
  result?: Array<{ url?: string; b64_json?: string; revised_prompt?: string }>;
  responseFormat: 'url' | 'b64_json';
}

const MAX_LOG = 10_000;

export class EmulatorState {
  keys = new Map<string, KeyConfig>();
  faults = new Map<string, Faults>();
  log: RequestLogEntry[] = [];
  counters = new Map<string, number>();
  tasks = new Map<string, Task>();
  files = new Map<string, { png: Buffer; expiresAt: number }>();
  rateWindows = new Map<string, number[]>();
  promptCache = new PromptCache();

  constructor(readonly config: EmulatorConfig) {
    this.reset();
  }

  /** A dialect set at run time through the admin API (POST /admin/dialect); reset() clears it. */
  dialect: string | undefined;

  /** Everything back to the config. */
  reset(): void {
    this.dialect = undefined;
    this.keys.clear();
    this.faults.clear();
    for (const k of this.config.keys) {
      this.keys.set(k.key, structuredClone(k));
      if (k.faults) this.faults.set(k.key, { ...k.faults });
    }
    this.log = [];
    this.counters.clear();
    this.tasks.clear();
    this.files.clear();
    this.rateWindows.clear();
    this.promptCache.clear();
  }

  /** Logs a request; the oldest entries go beyond MAX_LOG so a long soak run does not grow without bound. */
  record(entry: RequestLogEntry): void {
    this.log.push(entry);
    if (this.log.length > MAX_LOG) this.log.splice(0, this.log.length - MAX_LOG);
  }

  /** Drops expired tasks and files (called when new ones are stored). */
  sweep(now: number): void {
    for (const [id, t] of this.tasks) if (t.expiresAt <= now) this.tasks.delete(id);
    for (const [id, f] of this.files) if (f.expiresAt <= now) this.files.delete(id);
  }

  countBillable(route: RouteName): void {
    this.counters.set(route, (this.counters.get(route) ?? 0) + 1);
  }

  /** Adds a key at run time (admin API); generates the secret when none is given. */
  addKey(input: {
    group: string;
    name?: string;
    balance?: number;
    key?: string;
    rateLimit?: KeyConfig['rateLimit'];
  }): KeyConfig {
    if (!this.config.groups[input.group]) throw new Error(`unknown group '${input.group}'`);
    const key = input.key ?? `mg-${randomBytes(12).toString('hex')}`;
    if (this.keys.has(key)) throw new Error('key already exists');
    const record: KeyConfig = {
      key,
      name: input.name ?? `key-${this.keys.size + 1}`,
      group: input.group,
      balance: input.balance ?? 100,
      rateLimit: input.rateLimit,
    };
    this.keys.set(key, record);
    return record;
  }

  /**
   * Records one request for a key's rate limit; returns the wait in ms when over the limit, else 0.
   * Sliding window: the wait is until the oldest request in the window leaves it.
   */
  takeRateSlot(key: KeyConfig, now: number): number {
    const limit = key.rateLimit;
    if (!limit) return 0;
    const window = (this.rateWindows.get(key.key) ?? []).filter((t) => now - t < limit.windowMs);
    this.rateWindows.set(key.key, window);
    if (window.length >= limit.requests) return Math.max(1, window[0] + limit.windowMs - now);
    window.push(now);
    return 0;
  }
}

/** Canonical route name for billableCount(): accepts 'messages', '/v1/messages' and 'POST /v1/messages'. */
export function routeAlias(route: string): string {
  const trimmed = route
    .trim()
    .replace(/^(GET|POST)\s+/i, '')
    .replace(/^\/?v1\//, '')
    .replace(/^\//, '');
  return trimmed.replace(/\//g, '.');
}

export function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}
