// What the OpenAI-family dialects (chat-completions: chatMapping.ts, Responses: responsesMapping.ts) map alike: the
// tool list, the tool choice, a tool result as text, an image as a data URL, and the usage object. Each mapping wraps
// these in its own item shapes. Pure.
import { isObj, num, type Json } from '../json';
import type {
  ContentBlock,
  ImageBlockParam,
  Message,
  MessagesRequest,
  StopReason,
  TextBlockParam,
  ToolResultBlockParam,
  Usage,
} from '../types';

type Tool = NonNullable<MessagesRequest['tools']>[number];

/** A tool's function fields: its name, its description when it has one, its input schema as `parameters`. */
export function functionOf(t: Tool): Json {
  return {
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    parameters: t.input_schema,
  };
}

/**
 * The tool choice: `auto`, `required` (Messages' `any`), `none`, or the named function, wrapped as the dialect wants
 * it (chat-completions `{type, function: {name}}`, Responses `{type, name}`); undefined when the request sets none.
 */
export function toolChoiceOf(c: MessagesRequest['tool_choice'], named: (name: string) => Json): unknown {
  if (!c) return undefined;
  if (c.type === 'auto') return 'auto';
  if (c.type === 'any') return 'required';
  if (c.type === 'none') return 'none';
  return named((c as { name: string }).name);
}

/**
 * A tool result as the dialects carry it: its text blocks joined (`Error: ` before a failed one's), and its images,
 * which must ride in a user message after it (a tool output is text only in both dialects).
 */
export function flattenToolResult(b: ToolResultBlockParam): { text: string; images: ImageBlockParam[] } {
  const parts = typeof b.content === 'string' ? [{ type: 'text' as const, text: b.content }] : b.content;
  const text = parts
    .filter((p): p is TextBlockParam => p.type === 'text')
    .map((p) => p.text)
    .join('\n\n');
  return {
    text: b.is_error ? `Error: ${text}` : text,
    images: parts.filter((p): p is ImageBlockParam => p.type === 'image'),
  };
}

/** An image block as a `data:` URL. */
export function dataUrlOf(b: ImageBlockParam): string {
  return `data:${b.source.media_type};base64,${b.source.data}`;
}

/**
 * An OpenAI-family usage object as Messages usage: cached prompt tokens are cache reads, the rest is input; output
 * includes reasoning tokens. chat-completions names them prompt/completion tokens (`prompt_tokens_details`),
 * Responses input/output tokens (`input_tokens_details`); either is read, as some gateways mix them. OpenRouter's
 * billed cost rides in it too.
 */
export function usageOf(u: unknown): Usage | undefined {
  if (!isObj(u)) return undefined;
  const prompt = num(u.prompt_tokens) ?? num(u.input_tokens) ?? 0;
  const details = isObj(u.prompt_tokens_details)
    ? u.prompt_tokens_details
    : isObj(u.input_tokens_details)
      ? u.input_tokens_details
      : {};
  const cached = num(details.cached_tokens) ?? num(u.cache_read_input_tokens) ?? 0;
  const usage: Usage = {
    input_tokens: Math.max(0, prompt - cached),
    output_tokens: num(u.completion_tokens) ?? num(u.output_tokens) ?? 0,
    cache_read_input_tokens: cached,
  };
  const cost = num(u.cost);
  if (cost !== undefined && cost >= 0) usage.cost = cost;
  return usage;
}

/** A whole (non-streamed) answer as a Message: its id, model and usage from the body, its content and stop reason. */
export function wholeMessage(body: Json, content: ContentBlock[], stopReason: StopReason | null): Message {
  return {
    id: String(body.id ?? ''),
    type: 'message',
    role: 'assistant',
    model: String(body.model ?? ''),
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: usageOf(body.usage) ?? { input_tokens: 0, output_tokens: 0 },
  };
}
