// Binds dialect.ts's decision to one client: the host's knowledge plus what this client learned, and the
// dialects a request may move on to when its route is refused before any processing.
import type { ClientContext } from '../context';
import {
  chooseDialect,
  fallbacksOf,
  type Dialect,
  type DialectDecision,
  type DialectKnowledge,
  type GroupFamily,
} from './dialect';
import type { GatewayError } from '../errors/errors';
import { DIALECTS, dialectRoute } from '../../shared/dialects';

/** What is known about a model's dialect for this client. */
function knowledgeOf(ctx: ClientContext, model: string): DialectKnowledge {
  let knowledge: DialectKnowledge = {};
  try {
    knowledge = ctx.dialects?.knowledge(model) ?? {};
  } catch {
    // Knowledge is advice: a failing source leaves the default.
  }
  // With a host source, it alone says what was learned (it keeps it, and may forget it); without one, this client.
  return ctx.dialects ? knowledge : { ...knowledge, learned: ctx.learnedDialects.get(model) };
}

/** The dialect of a model for this client, and why. */
export function decideDialect(ctx: ClientContext, model: string): DialectDecision {
  return chooseDialect(knowledgeOf(ctx, model));
}

/** Each dialect's route ('POST /v1/…'), from the dialect table (shared/dialects.ts). */
export const ROUTES = Object.fromEntries(DIALECTS.map((d) => [d, dialectRoute(d)])) as Record<Dialect, string>;

/** How to send a request for `model`. A request without a model (the route probe) never falls back. */
export function planFor(ctx: ClientContext, model: unknown): StreamPlan {
  if (typeof model !== 'string' || model === '')
    return { dialect: 'messages', fallbacks: [], listed: false, pinned: true };
  const knowledge = knowledgeOf(ctx, model);
  const decision = chooseDialect(knowledge);
  return {
    dialect: decision.dialect,
    fallbacks: fallbacksOf(knowledge, decision),
    listed: knowledge.listed === true,
    pinned: decision.reason === 'setting',
    groupFamily: knowledge.groupFamily,
    onFellBack: (from, to, error) => {
      ctx.learnedDialects.set(model, to);
      ctx.logger?.info(
        ctx.redact(
          `Model ${model}: the gateway refused ${ROUTES[from]} before processing it (HTTP ${error.status ?? '?'}); sent once over ${ROUTES[to]}, and this model uses it from now on.`,
        ),
      );
      ctx.dialects?.learned(model, to, { status: error.status, serverMessage: error.serverMessage, from });
    },
  };
}

/**
 * How a request is sent: its dialect, and the dialects it may move on to, once each, when a route refuses it
 * before any processing (dialect.ts#refusalAllows).
 */
export interface StreamPlan {
  dialect: Dialect;
  fallbacks: Dialect[];
  /** The model list answered and names the model (dialect.ts#refusalAllows). */
  listed: boolean;
  /** The user's setting chose the dialect: no refusal moves the request elsewhere (dialect.ts#nextDialect). */
  pinned?: boolean;
  /** What the key's list says its group serves (dialect.ts#familyOfModelIds). */
  groupFamily?: GroupFamily;
  /** Told once per fallback (the host remembers it and tells the user). */
  onFellBack?(from: Dialect, to: Dialect, error: GatewayError): void;
}
