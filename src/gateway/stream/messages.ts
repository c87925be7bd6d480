// The shape check of a whole Message body, the tool inputs of a whole message, LiteLLM's cost header.
import { readToolInputJson } from './assemble';
import type { ClientContext } from '../context';
import { costFromHeader } from '../pricing';
import type { GatewayError } from '../errors/errors';
import { protocolFault, type CallSpec } from '../http';
import type { Message, ToolInputProblem } from '../types';

/** The body as a Message when it has the promised shape (a content array), else undefined. */
export function asMessage(value: unknown): Message | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Partial<Message>;
  if (!Array.isArray(m.content)) return undefined;
  return {
    ...m,
    id: String(m.id ?? ''),
    type: 'message',
    role: 'assistant',
    model: String(m.model ?? ''),
    content: m.content,
    stop_reason: m.stop_reason ?? null,
    stop_sequence: m.stop_sequence ?? null,
    usage: { input_tokens: 0, output_tokens: 0, ...(m.usage ?? {}) },
  };
}

/** LiteLLM states the billed cost in a header: copied to usage.cost when the body has none. */
export function withHeaderCost(message: Message, headers: Record<string, string | string[] | undefined>): Message {
  const cost = costFromHeader(headers['x-litellm-response-cost']);
  if (cost !== undefined && message.usage.cost === undefined) message.usage.cost = cost;
  return message;
}

/**
 * Makes every tool input of a whole (non-streamed) message a parsed object: an input sent as a JSON string
 * (OpenAI-style "arguments") is parsed; one that is not a JSON object is replaced by {} and returned as a
 * problem with its raw text, so the caller gets an error instead of a string where an object belongs.
 */
export function normalizeToolInputs(message: Message): ToolInputProblem[] {
  const problems: ToolInputProblem[] = [];
  message.content = message.content.map((block, index) => {
    const b = block as { type?: unknown; input?: unknown; id?: unknown; name?: unknown };
    if (!('input' in b) || (typeof b.input === 'object' && b.input !== null && !Array.isArray(b.input))) return block;
    const raw = typeof b.input === 'string' ? b.input : (JSON.stringify(b.input) ?? '');
    const read = readToolInputJson(raw, {});
    if (read.ok) return { ...block, input: read.value } as typeof block;
    problems.push({
      index,
      raw,
      reason: read.reason,
      ...(typeof b.id === 'string' ? { id: b.id } : {}),
      ...(typeof b.name === 'string' ? { name: b.name } : {}),
    });
    return { ...block, input: {} } as typeof block;
  });
  return problems;
}

/** The GatewayError for unusable tool inputs of a finished message (the message, with {} for them, is the partial). */
export function toolInputError(
  ctx: ClientContext,
  spec: CallSpec,
  ex: { status?: number; requestId?: string },
  message: Message,
  problems: ToolInputProblem[],
): GatewayError {
  const list = problems.map((p) => `${p.name ? `"${p.name}"` : 'a tool'} (block ${p.index}): ${p.reason}`).join('; ');
  const cutBy = message.stop_reason === 'max_tokens' ? ' It was cut by the max_tokens limit.' : '';
  return protocolFault(ctx, spec, ex, `unusable tool input: ${list}.${cutBy}`, {
    partial: message,
    toolInputProblems: problems,
  });
}
