// What the status bar says, from the active key, the settings and the last request. Pure; the words go through the
// Localizer passed in (vscode.l10n from the status bar; English by default).
import type { SupportRecord } from '../gateway/types';
import { describeBalance, type Balance } from '../gateway/balance';
import { english, type Localizer } from '../shared/l10n';

export type ConnectionState =
  | 'unknown'
  | 'ok'
  | 'no-base-url'
  | 'no-key'
  | 'key-rejected'
  | 'forbidden'
  | 'not-found'
  | 'rate-limited'
  | 'unreachable'
  | 'error';

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
  /** The key's balance, when the gateway offers one and it was read. */
  balance?: Balance;
}

const ICONS: Record<ConnectionState, string> = {
  unknown: '$(circle-outline)',
  ok: '$(pass)',
  'no-base-url': '$(warning)',
  'no-key': '$(key)',
  'key-rejected': '$(error)',
  forbidden: '$(error)',
  'not-found': '$(error)',
  'rate-limited': '$(watch)',
  unreachable: '$(debug-disconnect)',
  error: '$(warning)',
};

function stateWords(state: ConnectionState, l10n: Localizer): string {
  const words: Record<ConnectionState, string> = {
    unknown: l10n.t('not checked yet'),
    ok: l10n.t('connected'),
    'no-base-url': l10n.t('no base URL set'),
    'no-key': l10n.t('no API key'),
    'key-rejected': l10n.t('key rejected (401)'),
    forbidden: l10n.t('refused (403)'),
    'not-found': l10n.t('not found (404): check the base URL'),
    'rate-limited': l10n.t('rate limited (429)'),
    unreachable: l10n.t('gateway unreachable'),
    error: l10n.t('last request failed'),
  };
  return words[state] ?? words.error;
}

/** Short text: icon, key name, model. */
export function statusText(inputs: StatusInputs, l10n: Localizer = english): string {
  const state = effectiveState(inputs);
  if (state === 'no-base-url') return `${ICONS[state]} ${l10n.t('Gateway: set base URL')}`;
  if (state === 'no-key') return `${ICONS[state]} ${l10n.t('Gateway: set key')}`;
  return `${ICONS[state]} ${inputs.keyName}${inputs.chatModel ? ` · ${inputs.chatModel}` : ''}`;
}

export function effectiveState(inputs: StatusInputs): ConnectionState {
  if (!inputs.baseUrl) return 'no-base-url';
  if (!inputs.keyName) return 'no-key';
  return inputs.state;
}

/** Markdown tooltip lines (plain text only: no key, only its fingerprint). */
export function statusTooltip(inputs: StatusInputs, l10n: Localizer = english): string {
  const state = effectiveState(inputs);
  const none = l10n.t('(none)');
  const lines = [
    '**Model Gateway**',
    '',
    l10n.t('Connection: {0}', stateWords(state, l10n)),
    l10n.t('Base URL: {0}', inputs.baseUrl || l10n.t('(not set)')),
    l10n.t('Key: {0}', inputs.keyName ? `${inputs.keyName} (${inputs.keyFingerprint})` : none),
    l10n.t('Default chat model: {0}', inputs.chatModel ?? none),
  ];
  if (inputs.balance) lines.push(l10n.t('Balance: {0}', describeBalance(inputs.balance, l10n)));
  const last = inputs.lastRecord;
  if (last)
    lines.push(
      l10n.t('Last request: {0} → {1} at {2}', last.route, last.status ?? l10n.t('no answer'), last.timestamp),
    );
  lines.push('', l10n.t('Click for quick actions.'));
  return lines.join('  \n');
}
