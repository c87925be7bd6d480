// Binds dialect.ts's decision to one client: the host's knowledge plus what this client learned, and the
// fallback allowed only when nothing decided (no setting, no list entry, nothing learned).
import type { ClientContext } from './context';
import { chooseDialect, type Dialect, type DialectDecision, type DialectKnowledge } from './dialect';
import { GatewayError } from './errors';

/** The dialect of a model for this client, and why. */
export function decideDialect(ctx: ClientContext, model: string): DialectDecision {
  let knowledge: DialectKnowledge = {};
  try {
    knowledge = ctx.dialects?.knowledge(model) ?? {};
  } catch {
    // Knowledge is advice: a failing source leaves the default.
  }
  // With a host source, it alone says what was learned (it keeps it, and may forget it); without one, this client.
  return chooseDialect(ctx.dialects ? knowledge : { ...knowledge, learned: ctx.learnedDialects.get(model) });
}

/** How to send a request for `model`. A request without a model (the route probe) never falls back. */
export function planFor(ctx: ClientContext, model: unknown): StreamPlan {
  if (typeof model !== 'string' || model === '') return { dialect: 'messages' };
  const decision = decideDialect(ctx, model);
  if (decision.dialect === 'responses-only') return { dialect: 'responses-only' };
  if (decision.reason !== 'default') return { dialect: decision.dialect };
  return {
    dialect: 'messages',
    fallback: {
      onFellBack: (error) => {
        ctx.learnedDialects.set(model, 'chat-completions');
        ctx.logger?.info(
          ctx.redact(
            `Model ${model}: the gateway refused POST /v1/messages before processing it (HTTP ${error.status ?? '?'}); sent once over POST /v1/chat/completions, and this model uses it from now on.`,
          ),
        );
        ctx.dialects?.learned(model, 'chat-completions', { status: error.status, serverMessage: error.serverMessage });
      },
    },
  };
}

/**
 * How a stream is sent: its dialect, and whether a refusal of /v1/messages before any processing may send the
 * same request once on chat-completions (dialect.ts#isMessagesRouteRefusal). `responses-only`: nothing is sent.
 */
export interface StreamPlan {
  dialect: Dialect | 'responses-only';
  fallback?: {
    /** Told once when the fallback happened (the host remembers it and tells the user). */
    onFellBack(error: GatewayError): void;
  };
}

/** The error of a model the list says speaks only the Responses API: nothing is sent. */
export function responsesOnlyError(ctx: ClientContext, model: string): GatewayError {
  return new GatewayError({
    kind: 'bad_request',
    route: 'POST /v1/messages',
    model,
    serverCode: 'RESPONSES_ONLY',
    message: ctx.redact(
      `The gateway's model list says "${model}" speaks only the OpenAI Responses API (/v1/responses), which this extension does not speak; it can call models over Messages or chat-completions. Pick another model, or set modelGateway.models.dialects if the list is wrong.`,
    ),
  });
}
