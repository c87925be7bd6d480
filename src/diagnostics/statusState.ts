// What the status bar says, from the active key, the settings and the last request. Pure.
import type { SupportRecord } from '../gateway/types';

export type ConnectionState = 'unknown' | 'ok' | 'no-base-url' | 'no-key' | 'key-rejected' | 'forbidden' | 'not-found' | 'rate-limited' | 'unreachable' | 'error';

/** The connection state a finished request implies. */
export function stateFromRecord(record: Pick<SupportRecord, 'status'>): ConnectionState {
  const status = record.status;
  if (status === undefined) return 'unreachable';
  if (status < 400) return 'ok';
  if (status === 401) return 'key-rejected';
  if (status === 402 || status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 429) return 'rate-limited';
  return 'error';
}

export interface StatusInputs {
  keyName?: string;
  keyFingerprint?: string;
  baseUrl: string;
  state: ConnectionState;
  chatModel?: string;
  lastRecord?: SupportRecord;
}

const ICONS: Record<ConnectionState, string> = {
  unknown: '$(circle-outline)', ok: '$(pass)', 'no-base-url': '$(warning)', 'no-key': '$(key)', 'key-rejected': '$(error)',
  forbidden: '$(error)', 'not-found': '$(error)', 'rate-limited': '$(watch)', unreachable: '$(debug-disconnect)', error: '$(warning)',
};

const WORDS: Record<ConnectionState, string> = {
  unknown: 'not checked yet', ok: 'connected', 'no-base-url': 'no base URL set', 'no-key': 'no API key', 'key-rejected': 'key rejected (401)',
  forbidden: 'refused (403)', 'not-found': 'not found (404): check the base URL', 'rate-limited': 'rate limited (429)', unreachable: 'gateway unreachable', error: 'last request failed',
};

/** Short text: icon, key name, model. */
export function statusText(inputs: StatusInputs): string {
  const state = effectiveState(inputs);
  if (state === 'no-base-url') return `${ICONS[state]} Gateway: set base URL`;
  if (state === 'no-key') return `${ICONS[state]} Gateway: set key`;
  return `${ICONS[state]} ${inputs.keyName}${inputs.chatModel ? ` · ${inputs.chatModel}` : ''}`;
}

export function effectiveState(inputs: StatusInputs): ConnectionState {
  if (!inputs.baseUrl) return 'no-base-url';
  if (!inputs.keyName) return 'no-key';
  return inputs.state;
}

/** Markdown tooltip lines (plain text only: no key, only its fingerprint). */
export function statusTooltip(inputs: StatusInputs): string {
  const state = effectiveState(inputs);
  const lines = [
    '**Model Gateway**',
    '',
    `Connection: ${WORDS[state]}`,
    `Base URL: ${inputs.baseUrl || '(not set)'}`,
    `Key: ${inputs.keyName ? `${inputs.keyName} (${inputs.keyFingerprint})` : '(none)'}`,
    `Default chat model: ${inputs.chatModel ?? '(none)'}`,
  ];
  if (inputs.lastRecord) lines.push(`Last request: ${inputs.lastRecord.route} → ${inputs.lastRecord.status ?? 'no answer'} at ${inputs.lastRecord.timestamp}`);
  lines.push('', 'Click for quick actions.');
  return lines.join('  \n');
}
