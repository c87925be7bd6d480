// POST /v1/messages without streaming, and the shape check of a Message body.
import type { ClientContext } from './context';
import { protocolError, readJson, send, type CallSpec } from './http';
import type { Message, MessagesRequest, RequestOptions } from './types';

/** The body as a Message when it has the promised shape (a content array), else undefined. */
export function asMessage(value: unknown): Message | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Partial<Message>;
  if (!Array.isArray(m.content)) return undefined;
  return {
    ...m, id: String(m.id ?? ''), type: 'message', role: 'assistant', model: String(m.model ?? ''),
    content: m.content, stop_reason: m.stop_reason ?? null, stop_sequence: m.stop_sequence ?? null,
    usage: { input_tokens: 0, output_tokens: 0, ...(m.usage ?? {}) },
  };
}

/** Sends a non-streaming Messages request and returns the message. */
export async function createMessage(ctx: ClientContext, request: MessagesRequest, options?: RequestOptions): Promise<Message> {
  const spec: CallSpec = {
    method: 'POST', route: 'POST /v1/messages', url: ctx.baseUrl + '/v1/messages', auth: 'messages',
    body: JSON.stringify({ ...request, stream: false }), model: request.model, signal: options?.signal, onWait: options?.onWait,
  };
  const ex = await send(ctx, spec);
  const message = asMessage(await readJson(ctx, spec, ex));
  if (!message) throw protocolError(ctx, spec, ex, 'the reply is not a message (no content array)');
  return message;
}
