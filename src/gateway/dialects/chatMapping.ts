// The chat-completions dialect's request and whole-reply mapping (docs/gateway-protocol.md#chat-completions).
// Everything above src/gateway speaks one model of a message, the Messages one: a request is mapped from it
// here, and a reply mapped back into it, so no feature knows which dialect carried it. Pure.
import type {
  ContentBlock,
  ContentBlockParam,
  ImageBlockParam,
  Message,
  MessageParam,
  MessagesRequest,
  StopReason,
  TextBlockParam,
  ThinkingBlockParam,
} from '../types';
import { turnStart } from './reasoning';
import { isObj, type Json } from '../json';
import { dataUrlOf, flattenToolResult, functionOf, toolChoiceOf, wholeMessage } from './openAiFamily';

export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | ChatContentPart[] | null;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  /** The assistant's reasoning, sent back within its turn (DeepSeek's thinking mode requires it with tool calls). */
  reasoning_content?: string;
}

/**
 * The chat-completions body for a Messages request. No `cache_control` goes out (chat-completions has none;
 * gateways cache by prefix on their own and report it as cached_tokens); metadata has no portable counterpart
 * and is left out. Thinking goes back as `reasoning_content` on the current turn's assistant messages (after the
 * user's last own message) and is dropped from earlier turns, as DeepSeek documents for its thinking mode.
 */
export function toChatRequest(request: MessagesRequest, stream: boolean): Json {
  const messages: ChatMessage[] = [];
  const system = systemText(request.system);
  if (system) messages.push({ role: 'system', content: system });
  const start = turnStart(request.messages);
  request.messages.forEach((m, i) => messages.push(...toChatMessages(m, i >= start)));
  const body: Json = { model: request.model, messages, max_tokens: request.max_tokens };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.stop_sequences?.length) body.stop = request.stop_sequences;
  if (request.tools?.length) {
    body.tools = request.tools.map((t) => ({ type: 'function', function: functionOf(t) }));
    const choice = toolChoiceOf(request.tool_choice, (name) => ({ type: 'function', function: { name } }));
    if (choice !== undefined) body.tool_choice = choice;
  }
  if (stream) {
    body.stream = true;
    // Without it the stream carries no usage at all (one-api forces it upstream; OpenAI sends it last).
    body.stream_options = { include_usage: true };
  } else body.stream = false;
  return body;
}

/** The system prompt as one string (text blocks joined): chat-completions' system message, Responses' instructions. */
export function systemText(system: MessagesRequest['system']): string {
  if (system === undefined) return '';
  return typeof system === 'string' ? system : system.map((b) => b.text).join('\n\n');
}

function imageUrl(b: ImageBlockParam): ChatContentPart {
  return { type: 'image_url', image_url: { url: dataUrlOf(b) } };
}

/** Parts of a user message; a message of text only stays a plain string (what every gateway accepts). */
function userContent(blocks: Array<TextBlockParam | ImageBlockParam>): string | ChatContentPart[] {
  if (blocks.every((b) => b.type === 'text')) return blocks.map((b) => (b as TextBlockParam).text).join('\n\n');
  return blocks.map((b) => (b.type === 'text' ? { type: 'text' as const, text: b.text } : imageUrl(b)));
}

/**
 * One Messages message as chat messages. An assistant message's tool_use blocks become its tool_calls; a user
 * message's tool_result blocks become `role: "tool"` messages, which must directly follow that assistant
 * message, so they go first; text and images of the same user message follow as a user message. A tool result's
 * images cannot ride in a tool message (text only in chat-completions): they follow in that user message.
 */
function toChatMessages(m: MessageParam, currentTurn: boolean): ChatMessage[] {
  if (typeof m.content === 'string') return [{ role: m.role, content: m.content }];
  if (m.role === 'assistant') return [assistantMessage(m.content, currentTurn)];
  const out: ChatMessage[] = [];
  const rest: Array<TextBlockParam | ImageBlockParam> = [];
  for (const b of m.content) {
    if (b.type === 'tool_result') {
      const { text, images } = flattenToolResult(b);
      out.push({ role: 'tool', tool_call_id: b.tool_use_id, content: text });
      rest.push(...images);
    } else if (b.type === 'text' || b.type === 'image') rest.push(b);
  }
  if (rest.length) out.push({ role: 'user', content: userContent(rest) });
  return out;
}

function assistantMessage(blocks: ContentBlockParam[], currentTurn: boolean): ChatMessage {
  const text = blocks
    .filter((b): b is TextBlockParam => b.type === 'text')
    .map((b) => b.text)
    .join('');
  const calls = blocks.flatMap((b) =>
    b.type === 'tool_use'
      ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }]
      : [],
  );
  const message: ChatMessage = { role: 'assistant', content: text === '' && calls.length ? null : text };
  if (calls.length) message.tool_calls = calls;
  const reasoning = blocks
    .filter((b): b is ThinkingBlockParam => b.type === 'thinking')
    .map((b) => b.thinking)
    .join('');
  if (currentTurn && reasoning !== '') message.reasoning_content = reasoning;
  return message;
}

const FINISH_REASONS: Record<string, StopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

/** A chat-completions finish_reason as a Messages stop reason (unknown ones are kept as sent). */
export function stopReasonOf(finish: unknown): StopReason | null {
  if (typeof finish !== 'string' || finish === '') return null;
  return FINISH_REASONS[finish] ?? finish;
}

/** A whole (non-streamed) chat completion as a Message, or undefined when it has no choices array. */
export function messageOfCompletion(body: unknown): Message | undefined {
  if (!isObj(body) || !Array.isArray(body.choices)) return undefined;
  const choice = (body.choices.find((c) => isObj(c) && (c.index ?? 0) === 0) ?? body.choices[0]) as Json | undefined;
  const msg = isObj(choice?.message) ? choice.message : {};
  const content: ContentBlock[] = [];
  const reasoning = msg.reasoning_content ?? msg.reasoning;
  if (typeof reasoning === 'string' && reasoning !== '') content.push({ type: 'thinking', thinking: reasoning });
  if (typeof msg.content === 'string' && msg.content !== '') content.push({ type: 'text', text: msg.content });
  if (typeof msg.refusal === 'string' && msg.refusal !== '') content.push({ type: 'text', text: msg.refusal });
  for (const call of Array.isArray(msg.tool_calls) ? msg.tool_calls : []) {
    if (!isObj(call)) continue;
    const fn = isObj(call.function) ? call.function : {};
    // The arguments string is parsed by normalizeToolInputs (an unusable one becomes a ToolInputProblem).
    content.push({
      type: 'tool_use',
      id: String(call.id ?? ''),
      name: String(fn.name ?? ''),
      input: fn.arguments ?? '',
    });
  }
  return wholeMessage(body, content, stopReasonOf(choice?.finish_reason));
}
