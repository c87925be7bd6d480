// Turns a failure into the inline error card of the chat (pure). The words come from the gateway's
// adviseOnError (the one place errors become words); this adds the facts the card shows.
import { isGatewayError } from '../../gateway/errors/errors';
import { english, type Localizer } from '../../shared/l10n';
import type { ErrorActionId, ErrorCard } from '../../shared/protocol/chat';

export interface Advice {
  title: string;
  detail: string;
  actions: ErrorActionId[];
  retryAfterMs?: number;
}

export type Advise = (error: unknown) => Advice;

/** A problem found before any request was made (no key, no model): words and actions of its own. */
export class ChatSetupError extends Error {
  constructor(
    message: string,
    readonly actions: ErrorActionId[],
  ) {
    super(message);
    this.name = 'ChatSetupError';
  }
}

/** The card of a failure; its own titles in `l10n` (the advice brings its words, in the language `advise` uses). */
export function toErrorCard(error: unknown, advise: Advise, l10n: Localizer = english): ErrorCard {
  if (error instanceof ChatSetupError)
    return { title: l10n.t('Cannot send yet'), detail: error.message, actions: error.actions };
  if (!isGatewayError(error)) {
    return {
      title: l10n.t('Something went wrong'),
      detail: error instanceof Error ? error.message : String(error),
      actions: ['showLog'],
    };
  }
  const advice = advise(error);
  const card: ErrorCard = {
    title: advice.title,
    detail: advice.detail,
    actions: [...advice.actions],
    kind: error.kind,
    outcomeUnknown: error.outcomeUnknown,
  };
  if (error.status !== undefined) card.status = error.status;
  if (error.requestId !== undefined) card.requestId = error.requestId;
  const retryAfterMs = advice.retryAfterMs ?? error.retryAfterMs;
  if (retryAfterMs !== undefined) card.retryAfterMs = retryAfterMs;
  // 403: the card always offers the four checks (console advice) and Check Connection.
  if (error.kind === 'forbidden') {
    for (const action of ['openConsoleAdvice', 'checkConnection'] as const)
      if (!card.actions.includes(action)) card.actions.push(action);
  }
  // Never offer a blind resend after a timeout: the first request may have been processed and charged.
  // A stream cut mid-way is not blind: the user sees the partial answer and the unknown billing, and decides.
  if (error.outcomeUnknown && !error.cut) card.actions = card.actions.filter((a) => a !== 'retry');
  return card;
}
