// The last requests' support records: exactly timestamp, route, model, HTTP status, request id
// (docs/gateway-protocol.md#support-facts). Pure: unit-tested in plain node.
import type { SupportRecord } from '../gateway/types';
import type { SupportLog } from './services';
import { redactSecrets } from '../shared/secretRedaction';

/**
 * Copies only the five allowed fields, whatever else the object carries; the texts pass `redact` (a request id
 * that echoed a key is kept, as redacted: support can still tell there was one).
 */
export function toSupportRecord(
  source: SupportRecord,
  redact: (text: string) => string = redactSecrets,
): SupportRecord {
  const record: SupportRecord = { timestamp: String(source.timestamp), route: redact(String(source.route)) };
  if (typeof source.model === 'string' && source.model !== '') record.model = redact(source.model);
  if (typeof source.status === 'number') record.status = source.status;
  if (typeof source.requestId === 'string' && source.requestId !== '') record.requestId = redact(source.requestId);
  return record;
}

/** A fixed-size ring buffer of support records, newest last. */
export class SupportRing implements SupportLog {
  private readonly records: SupportRecord[] = [];
  private readonly listeners = new Set<(record: SupportRecord) => void>();

  constructor(
    private readonly capacity = 50,
    private readonly redact: (text: string) => string = redactSecrets,
  ) {}

  add(record: SupportRecord): void {
    const clean = toSupportRecord(record, this.redact);
    this.records.push(clean);
    if (this.records.length > this.capacity) this.records.splice(0, this.records.length - this.capacity);
    for (const listener of this.listeners) listener({ ...clean });
  }

  /** Called after every added record (the status bar shows the connection state from it). */
  onDidAdd(listener: (record: SupportRecord) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  recent(limit = this.capacity): SupportRecord[] {
    return this.records.slice(-Math.max(0, limit)).map((record) => ({ ...record }));
  }
}

/** Plain text for the clipboard: one line per request, the five fields only, redacted once more as a whole. */
export function formatSupportInfo(
  records: readonly SupportRecord[],
  redact: (text: string) => string = redactSecrets,
  headerNames: readonly string[] = [],
): string {
  const lines = ['Model Gateway support info (timestamp, route, model, HTTP status, request id):'];
  // Names only: a header's value may be a secret (and is the user's business).
  if (headerNames.length > 0) lines.push(`Request headers sent (names only): ${headerNames.join(', ')}`);
  if (records.length === 0) lines.push('(no requests recorded in this window yet)');
  for (const record of records) {
    lines.push(
      [record.timestamp, record.route, record.model ?? '-', record.status ?? '-', record.requestId ?? '-'].join('\t'),
    );
  }
  return redact(lines.join('\n'));
}
