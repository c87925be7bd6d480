// Check Connection's "Dialects" step: which wire protocol each chat model is called with, and why, from what
// is known (the setting, the model list, what refusals taught); no request is sent for it. Pure.
import type { DialectDecision, GatewayClient } from '../gateway/types';
import { DIALECT_TABLE, dialectRoute, type Dialect } from '../shared/dialects';
import type { Localizer } from '../shared/l10n';
import type { ReportStep } from './report';

/** A dialect as Check Connection names it: "Messages (POST /v1/messages)" (shared/dialects.ts). */
export function dialectName(dialect: Dialect): string {
  return `${DIALECT_TABLE[dialect].label} (${dialectRoute(dialect)})`;
}

function reasonWords(d: DialectDecision, l10n: Localizer): string {
  const name = dialectName(d.dialect);
  switch (d.reason) {
    case 'setting':
      return l10n.t('{0}, set in modelGateway.models.dialects', name);
    case 'model-list':
      return l10n.t("{0}, from the model list's endpoint types", name);
    case 'learned':
      return l10n.t('{0}, learned: the gateway refused another route for it before processing it', name);
    default:
      return l10n.t('{0}, the default (a refusal of POST /v1/messages would switch it to chat-completions once)', name);
  }
}

/** One line per decision, naming its models. */
export function dialectStep(client: Pick<GatewayClient, 'dialectFor'>, chatIds: string[], l10n: Localizer): ReportStep {
  const groups = new Map<string, string[]>();
  for (const id of chatIds) {
    const d = client.dialectFor?.(id) ?? { dialect: 'messages', reason: 'default' };
    const words = reasonWords(d, l10n);
    groups.set(words, [...(groups.get(words) ?? []), id]);
  }
  return {
    title: l10n.t('Dialects'),
    status: chatIds.length ? 'ok' : 'skipped',
    lines: chatIds.length
      ? [...groups].map(([words, ids]) => l10n.t('{0}: {1}', words, ids.join(', ')))
      : [l10n.t('No chat model is listed for this key.')],
  };
}
