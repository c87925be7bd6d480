// A request without streaming, in the model's dialect (dialectCall.ts): the whole reply as a Message.
import { reportUsage, type ClientContext } from './context';
import { protocolError, readJson } from './http';
import { sendPlanned, wireOf } from './dialects/dialectCall';
import type { StreamPlan } from './dialects/dialectPlan';
import { normalizeToolInputs, toolInputError, withHeaderCost } from './stream/messages';
import type { Message, MessagesRequest, RequestOptions } from './types';

/** Sends a non-streaming request in the model's dialect (dialectCall.ts) and returns the message. */
export async function createMessage(
  ctx: ClientContext,
  request: MessagesRequest,
  options?: RequestOptions,
  plan: StreamPlan = { dialect: 'messages', fallbacks: [], listed: false, pinned: true },
): Promise<Message> {
  const { exchange: ex, dialect, spec } = await sendPlanned(ctx, request, plan, false, options);
  const wire = wireOf(dialect);
  const body = await readJson(ctx, spec, ex);
  const message = wire.whole(body);
  if (!message) throw protocolError(ctx, spec, ex, wire.notWhole);
  withHeaderCost(message, ex.headers);
  reportUsage(ctx, {
    route: spec.route,
    dialect,
    model: message.model || request.model,
    usage: message.usage,
    ...(options?.usageKind ? { kind: options.usageKind } : {}),
  });
  const problems = normalizeToolInputs(message);
  if (problems.length) throw toolInputError(ctx, spec, ex, message, problems);
  return message;
}
