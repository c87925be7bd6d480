// POST /v1/responses: the OpenAI Responses API, as new-api, LiteLLM, Portkey and OpenRouter serve it. The request is
// read into the Messages form the emulator's reply planner knows (the same replies, the same scripted agent over
// function calls), and the plan is written as Responses events: output items (reasoning with encrypted content,
// message, function_call) with their deltas, then response.completed — or response.incomplete when max_output_tokens
// cut it, response.failed with the responseFailed fault; the stream faults (drop, error event) apply as elsewhere.
import { charge, logUsage, planPrice, uncachedInput } from '../access';
import { sendError } from '../errors';
import { sendJson, sleep, type Ctx } from '../http';
import { planReply, type FinalBlock, type ReplyPlan } from '../reply';
import { pacing, SseWriter } from '../sse';
import { newId } from '../state';
import { encryptedFor, isOwnEncrypted, missingReasoning } from '../models/reasoningModel';
import { dataUrlImage, readAsMessages, toolChoiceOf } from './openAiForm';

type Json = Record<string, unknown>;

export async function handleResponses(ctx: Ctx): Promise<void> {
  const read = await readAsMessages(ctx, toMessagesForm);
  if (!read) return;
  const { body, form, model } = read;
  const upstream = ctx.state.config.models[model.upstream];
  if (upstream?.thinks) {
    const missing = missingReasoning(form.messages as Json[]);
    if (missing !== undefined) {
      sendError(
        ctx,
        400,
        `Item at input index ${missing}: a function_call of this turn came back without the reasoning item before it (send it back with its encrypted_content, or use store: true).`,
        'invalid_request_error',
      );
      return;
    }
  }
  if (upstream?.thinks || isObj(body.reasoning)) form.thinking = { type: 'enabled', budget_tokens: 1024 };
  const plan = planReply(form, model.visible, upstream?.agent === true);
  if (!charge(ctx, planPrice(ctx, model.upstream, plan))) return;
  const head = { id: newId('resp_emu'), created_at: Math.floor(Date.now() / 1000), model: model.visible };
  const items = plan.blocks.map(itemOf);
  if (body.stream === true) {
    ctx.entry.stream = true;
    await streamEvents(ctx, head, plan, items);
    return;
  }
  sendJson(
    ctx,
    200,
    responseOf(
      ctx,
      head,
      plan,
      items.map((i) => i.done),
    ),
  );
}

interface Item {
  block: FinalBlock;
  /** The item as output_item.added sends it, and as output_item.done / the final response have it. */
  added: Json;
  done: Json;
}

function itemOf(b: FinalBlock): Item {
  const text = b.pieces.join('');
  if (b.type === 'thinking') {
    const id = newId('rs_emu');
    return {
      block: b,
      added: { id, type: 'reasoning', summary: [] },
      done: { id, type: 'reasoning', summary: [{ type: 'summary_text', text }], encrypted_content: encryptedFor(text) },
    };
  }
  if (b.type === 'tool_use') {
    const base = { id: newId('fc_emu'), type: 'function_call', call_id: b.id, name: b.name };
    return {
      block: b,
      added: { ...base, status: 'in_progress', arguments: '' },
      done: { ...base, status: 'completed', arguments: text },
    };
  }
  const id = newId('msg_emu');
  return {
    block: b,
    added: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    done: {
      id,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', annotations: [], text }],
    },
  };
}

function usageOf(ctx: Ctx, plan: ReplyPlan, output: number): Json {
  logUsage(ctx, uncachedInput(plan.inputTokens), output);
  const reasoning = plan.blocks.filter((b) => b.type === 'thinking').reduce((n, b) => n + b.pieces.length, 0);
  return {
    input_tokens: plan.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: plan.inputTokens + output,
  };
}

interface Head {
  id: string;
  created_at: number;
  model: string;
}

function responseOf(ctx: Ctx, head: Head, plan: ReplyPlan, output: Json[]): Json {
  const cut = plan.stopReason === 'max_tokens';
  return {
    ...head,
    object: 'response',
    status: cut ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: cut ? { reason: 'max_output_tokens' } : null,
    output,
    usage: usageOf(ctx, plan, plan.outputTokens),
  };
}

/** Streams the plan as Responses events, paced like the Messages stream; stops when the client goes. */
async function streamEvents(ctx: Ctx, head: Head, plan: ReplyPlan, items: Item[]): Promise<void> {
  const sse = new SseWriter(ctx, { responses: true });
  const { perDelta, pause } = pacing(ctx);
  let seq = 0;
  const send = (type: string, data: Json): boolean => sse.send(type, { type, sequence_number: seq++, ...data });
  const pending = { ...head, object: 'response', status: 'in_progress', output: [], usage: null };
  if (!send('response.created', { response: pending })) return;
  if (!send('response.in_progress', { response: pending })) return;
  if (ctx.faults.responseFailed) {
    const error = { code: 'server_error', message: 'Emulated failure of the response.' };
    if (send('response.failed', { response: { ...pending, status: 'failed', error } })) sse.end();
    return;
  }
  for (const [output_index, item] of items.entries()) {
    const b = item.block;
    const item_id = item.added.id;
    if (!send('response.output_item.added', { output_index, item: item.added })) return;
    const deltas = async (type: string, extra: Json): Promise<boolean> => {
      const step = b.type === 'tool_use' ? 1 : perDelta;
      for (let i = 0; i < b.pieces.length; i += step) {
        if (pause > 0) await sleep(pause);
        const delta = b.pieces.slice(i, i + step).join('');
        if (!send(type, { item_id, output_index, ...extra, delta })) return false;
      }
      return true;
    };
    const text = b.pieces.join('');
    if (b.type === 'thinking') {
      const part = { summary_index: 0 };
      if (!send('response.reasoning_summary_part.added', { item_id, output_index, ...part, part: summary('') })) return;
      if (!(await deltas('response.reasoning_summary_text.delta', part))) return;
      if (!send('response.reasoning_summary_text.done', { item_id, output_index, ...part, text })) return;
      if (!send('response.reasoning_summary_part.done', { item_id, output_index, ...part, part: summary(text) }))
        return;
    } else if (b.type === 'tool_use') {
      if (!(await deltas('response.function_call_arguments.delta', {}))) return;
      if (!send('response.function_call_arguments.done', { item_id, output_index, arguments: text })) return;
    } else {
      const part = { content_index: 0 };
      if (!send('response.content_part.added', { item_id, output_index, ...part, part: outputText('') })) return;
      if (!(await deltas('response.output_text.delta', { ...part, logprobs: [] }))) return;
      if (!send('response.output_text.done', { item_id, output_index, ...part, text, logprobs: [] })) return;
      if (!send('response.content_part.done', { item_id, output_index, ...part, part: outputText(text) })) return;
    }
    if (!send('response.output_item.done', { output_index, item: item.done })) return;
  }
  const final = responseOf(
    ctx,
    head,
    plan,
    items.map((i) => i.done),
  );
  if (!send(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final })) return;
  sse.end();
}

const summary = (text: string): Json => ({ type: 'summary_text', text });
const outputText = (text: string): Json => ({ type: 'output_text', annotations: [], text });

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The request in the Messages form the planner reads: `instructions` as the system, message items as messages,
 * function_call items as the assistant's tool_use blocks, function_call_output items as tool_result blocks of one
 * user message (an output of parts keeps its images), input_image parts (data URLs) as base64 image blocks,
 * reasoning items as thinking blocks (their encrypted content must be the emulator's own: 400
 * otherwise). Answers 400 (OpenAI style) for a body without model or input.
 */
function toMessagesForm(ctx: Ctx, body: Json): Json | undefined {
  const fail = (m: string, code = 'invalid_request_error'): undefined => {
    sendError(ctx, 400, m, code);
    return undefined;
  };
  if (typeof body.model !== 'string' || !body.model) return fail("Missing required parameter: 'model'.");
  ctx.entry.model = body.model;
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  if (!Array.isArray(input) || input.length === 0) return fail("Missing required parameter: 'input'.");
  const messages: Json[] = [];
  const push = (role: 'user' | 'assistant', block: Json, merge: (b: Json) => boolean): void => {
    const last = messages[messages.length - 1];
    if (last?.role === role && (last.content as Json[]).every(merge)) (last.content as Json[]).push(block);
    else messages.push({ role, content: [block] });
  };
  for (const [i, raw] of (input as unknown[]).entries()) {
    const item = isObj(raw) ? raw : {};
    const type = item.type ?? 'message';
    if (type === 'function_call') {
      let args: unknown;
      try {
        args = JSON.parse(String(item.arguments ?? '{}'));
      } catch {
        return fail(`input[${i}].arguments: must be a JSON string`);
      }
      const block = { type: 'tool_use', id: String(item.call_id ?? ''), name: String(item.name ?? ''), input: args };
      push('assistant', block, () => true);
    } else if (type === 'function_call_output') {
      // An output is a string, or (as the Responses API allows) input_text / input_image parts.
      const content = Array.isArray(item.output) ? partsOf(item.output) : textOf(item.output);
      const block = { type: 'tool_result', tool_use_id: String(item.call_id ?? ''), content };
      push('user', block, (b) => b.type === 'tool_result');
    } else if (type === 'reasoning') {
      if (!isOwnEncrypted(item.encrypted_content))
        return fail(
          `input[${i}]: the encrypted content of this reasoning item could not be verified.`,
          'invalid_encrypted_content',
        );
      const text = (Array.isArray(item.summary) ? (item.summary as Json[]) : [])
        .map((p) => String(p?.text ?? ''))
        .join('');
      push('assistant', { type: 'thinking', thinking: text }, () => true);
    } else if (type === 'message') {
      if (item.role === 'system' || item.role === 'developer') continue;
      if (item.role !== 'user' && item.role !== 'assistant')
        return fail(`input[${i}].role: must be 'user', 'assistant', 'system' or 'developer'`);
      const blocks = partsOf(item.content);
      const last = messages[messages.length - 1];
      if (item.role === 'assistant' && last?.role === 'assistant') (last.content as Json[]).push(...blocks);
      else messages.push({ role: item.role, content: blocks });
    }
  }
  if (messages.length === 0) return fail("Missing required parameter: 'input'.");
  const tools = Array.isArray(body.tools)
    ? (body.tools as Json[])
        .filter((t) => t?.type === 'function')
        .map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters ?? {} }))
    : undefined;
  const toolChoice = toolChoiceOf(body.tool_choice, (choice) =>
    isObj(choice) ? { type: 'tool', name: choice.name } : undefined,
  );
  const max = Number(body.max_output_tokens ?? 4096);
  if (!Number.isInteger(max) || max < 16) return fail('max_output_tokens: must be an integer of at least 16');
  return {
    model: body.model,
    max_tokens: max,
    messages,
    ...(typeof body.instructions === 'string' ? { system: body.instructions } : {}),
    ...(tools?.length ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Json[]).map((p) => String(p?.text ?? '')).join('\n');
}

function partsOf(content: unknown): Json[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return (content as Json[]).flatMap((p): Json[] => {
    if (p?.type === 'input_text' || p?.type === 'output_text') return [{ type: 'text', text: String(p.text ?? '') }];
    if (p?.type === 'input_image') return [dataUrlImage(String(p.image_url ?? ''))];
    return [];
  });
}
