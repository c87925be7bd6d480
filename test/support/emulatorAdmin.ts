// Tiny client for the emulator's admin API (/admin/*). Uses the global fetch, so it works in plain node 20
// and inside a VS Code extension host. Only types come from src/emulator (erased when a host test is bundled).
import type { Faults, RequestLogEntry } from '../../src/emulator/types';

/** One request as the emulator logged it (GET /admin/requests). */
export type AdminRequestEntry = RequestLogEntry;
/** Fault switches of a key (POST /admin/faults). */
export type AdminFaults = Faults;

export interface AdminKey {
  key: string;
  name: string;
  group: string;
  balance: number;
  revoked?: boolean;
}

export class EmulatorAdmin {
  /** url: the emulator's site root (e.g. process.env.MG_EMULATOR_URL); token: its admin token. */
  constructor(
    readonly url: string,
    private readonly token = 'emulator-admin',
  ) {}

  /** From MG_EMULATOR_URL / MG_EMULATOR_ADMIN_TOKEN (the in-host and UI test environment). */
  static fromEnv(): EmulatorAdmin {
    const url = process.env.MG_EMULATOR_URL;
    if (!url) throw new Error('MG_EMULATOR_URL is not set');
    return new EmulatorAdmin(url, process.env.MG_EMULATOR_ADMIN_TOKEN ?? 'emulator-admin');
  }

  async requests(): Promise<AdminRequestEntry[]> {
    return (await this.call<{ requests: AdminRequestEntry[] }>('GET', '/admin/requests')).requests;
  }

  counters(): Promise<{ billable: Record<string, number>; totalBillable: number }> {
    return this.call('GET', '/admin/counters');
  }

  async keys(): Promise<AdminKey[]> {
    return (await this.call<{ keys: AdminKey[] }>('GET', '/admin/keys')).keys;
  }

  createKey(input: {
    group: string;
    name?: string;
    balance?: number;
    key?: string;
    rateLimit?: { requests: number; windowMs: number };
  }): Promise<{ key: string; name: string }> {
    return this.call('POST', '/admin/keys', input);
  }

  async revokeKey(key: string): Promise<void> {
    await this.call('POST', '/admin/keys/revoke', { key });
  }

  async setBalance(key: string, balance: number): Promise<void> {
    await this.call('POST', '/admin/keys/balance', { key, balance });
  }

  async setFaults(key: string, faults: AdminFaults | null): Promise<void> {
    await this.call('POST', '/admin/faults', { key, faults });
  }

  /** Every following request gets this gateway dialect ('one-api', ...); null: the emulator's configured one. */
  async setDialect(dialect: string | null): Promise<void> {
    await this.call('POST', '/admin/dialect', { dialect });
  }

  async reset(): Promise<void> {
    await this.call('POST', '/admin/reset', {});
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(this.url.replace(/\/+$/, '') + path, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator admin ${method} ${path}: HTTP ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }
}
