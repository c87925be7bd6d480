// The Responses dialect's request and whole-reply mapping (docs/gateway-protocol.md#responses). As with
// chat-completions (chatMapping.ts), everything above src/gateway speaks the Messages model of a message: a
// request is mapped from it here and a reply mapped back into it. Pure.
//
// Requests go with `store: false` (nothing is kept at the gateway) and `include: ["reasoning.encrypted_content"]`,
// so a reasoning item comes back encrypted; it is kept as a thinking block (summary as the text, the encrypted
// content as the signature) that the agent loop keeps within the turn and that goes back as a reasoning item.
import { stopReasonOf as chatStopReason, systemText } from './chatMapping';
import { isObj, type Json } from '../json';
import { dataUrlOf, flattenToolResult, functionOf, toolChoiceOf, wholeMessage } from './openAiFamily';
import { openAiEffort, turnStart, type ReasoningEffort } from './reasoning';
import type {
  ContentBlock,
  ContentBlockParam,
  ImageBlockParam,
  Message,
  MessageParam,
  MessagesRequest,
  StopReason,
} from '../types';

/** The Responses body for a Messages request. */
export function toResponsesRequest(request: MessagesRequest, stream: boolean, effort?: ReasoningEffort): Json {
  const input: Json[] = [];
  const start = turnStart(request.messages);
  request.messages.forEach((m, i) => input.push(...toInputItems(m, i >= start)));
  const body: Json = {
    model: request.model,
    input,
    max_output_tokens: request.max_tokens,
    stream,
    store: false,
    include: ['reasoning.encrypted_content'],
  };
  const system = systemText(request.system);
  if (system) body.instructions = system;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.tools?.length) {
    // Non-strict: strict mode rewrites the schema's rules (every property required, no extra keys).
    body.tools = request.tools.map((t) => ({ type: 'function', ...functionOf(t), strict: false }));
    const choice = toolChoiceOf(request.tool_choice, (name) => ({ type: 'function', name }));
    if (choice !== undefined) body.tool_choice = choice;
  }
  const e = openAiEffort(effort);
  if (e) body.reasoning = { effort: e, summary: 'auto' };
  return body;
}

const inputImage = (b: ImageBlockParam): Json => ({ type: 'input_image', image_url: dataUrlOf(b), detail: 'auto' });

/**
 * One Messages message as input items. A user's tool_result blocks become function_call_output items (their
 * images follow in a user message: an output is text); text and images a user message; an assistant's text a
 * message, its tool_use blocks function_call items, its thinking with a signature (a Responses reasoning item,
 * in the current turn only) a reasoning item, in the order they came.
 */
function toInputItems(m: MessageParam, currentTurn: boolean): Json[] {
  if (typeof m.content === 'string') return [{ type: 'message', role: m.role, content: m.content }];
  const out: Json[] = [];
  if (m.role === 'assistant') {
    let text = '';
    const flush = (): void => {
      if (text !== '') out.push({ type: 'message', role: 'assistant', content: text });
      text = '';
    };
    for (const b of m.content) {
      if (b.type === 'text') text += b.text;
      else if (b.type === 'tool_use') {
        flush();
        out.push({ type: 'function_call', call_id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) });
      } else if (b.type === 'thinking' && currentTurn && b.signature) {
        flush();
        out.push({
          type: 'reasoning',
          summary: b.thinking ? [{ type: 'summary_text', text: b.thinking }] : [],
          encrypted_content: b.signature,
        });
      }
    }
    flush();
    return out;
  }
  const parts: Json[] = [];
  for (const b of m.content as ContentBlockParam[]) {
    if (b.type === 'tool_result') {
      const { text, images } = flattenToolResult(b);
      out.push({ type: 'function_call_output', call_id: b.tool_use_id, output: text });
      for (const p of images) parts.push(inputImage(p));
    } else if (b.type === 'text') parts.push({ type: 'input_text', text: b.text });
    else if (b.type === 'image') parts.push(inputImage(b));
  }
  if (parts.length) out.push({ type: 'message', role: 'user', content: parts });
  return out;
}

/** Why a response ended, as a Messages stop reason. */
export function responsesStopReason(response: Json, calledTools: boolean): StopReason {
  if (response.status === 'incomplete') {
    const reason = isObj(response.incomplete_details) ? response.incomplete_details.reason : undefined;
    if (reason === 'content_filter') return 'refusal';
    return reason === 'max_output_tokens' || reason === undefined
      ? 'max_tokens'
      : (chatStopReason(reason) ?? 'max_tokens');
  }
  return calledTools ? 'tool_use' : 'end_turn';
}

/** One output item as content blocks (a message may hold several text parts). */
export function blocksOfItem(item: unknown): ContentBlock[] {
  if (!isObj(item)) return [];
  if (item.type === 'reasoning') {
    const summary = Array.isArray(item.summary) ? item.summary : [];
    const text = summary.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('\n\n');
    return [
      {
        type: 'thinking',
        thinking: text,
        ...(typeof item.encrypted_content === 'string' ? { signature: item.encrypted_content } : {}),
      },
    ];
  }
  if (item.type === 'function_call')
    // The arguments string is parsed by normalizeToolInputs (an unusable one becomes a ToolInputProblem).
    return [
      {
        type: 'tool_use',
        id: String(item.call_id ?? item.id ?? ''),
        name: String(item.name ?? ''),
        input: item.arguments ?? '',
      },
    ];
  if (item.type === 'message' && Array.isArray(item.content))
    return item.content.flatMap((p): ContentBlock[] => {
      if (!isObj(p)) return [];
      const text = p.type === 'refusal' ? p.refusal : p.text;
      return typeof text === 'string' && text !== '' ? [{ type: 'text', text }] : [];
    });
  return [];
}

/** A whole (non-streamed) response as a Message, or undefined when it has no output array. */
export function messageOfResponse(body: unknown): Message | undefined {
  if (!isObj(body) || !Array.isArray(body.output)) return undefined;
  const content = body.output.flatMap(blocksOfItem);
  return wholeMessage(
    body,
    content,
    responsesStopReason(
      body,
      content.some((b) => b.type === 'tool_use'),
    ),
  );
}
