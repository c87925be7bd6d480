// POST /v1/chat/completions: the OpenAI chat-completions dialect, as one-api, new-api and LiteLLM serve it
// (REAL-GATEWAYS.md#chat-completions-streams-through-these-gateways). The request is read into the Messages
// form the emulator's reply planner knows (the same replies, the same scripted agent over tool_calls), and
// the plan is written as chat.completion chunks: `content`, `reasoning_content`, `tool_calls` fragments by
// index, a finish_reason chunk, a usage chunk (stream_options.include_usage; one-api always sends it), [DONE].
import { randomBytes } from 'node:crypto';
import { charge, logUsage, planPrice, uncachedInput } from '../access';
import { sendError } from '../errors';
import { sendJson, sleep, type Ctx } from '../http';
import { planReply, type FinalBlock, type ReplyPlan } from '../reply';
import { pacing, SseWriter } from '../sse';
import { newId } from '../state';
import { missingReasoning } from '../models/reasoningModel';
import { dataUrlImage, readAsMessages, toolChoiceOf } from './openAiForm';

type Json = Record<string, unknown>;

const FINISH: Record<ReplyPlan['stopReason'], string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
};

export async function handleChatCompletions(ctx: Ctx): Promise<void> {
  const read = await readAsMessages(ctx, toMessagesForm);
  if (!read) return;
  const { body, form: messagesBody, model } = read;
  if (!reasoningCameBack(ctx, model.upstream, messagesBody)) return;
  const plan = planReply(messagesBody, model.visible, ctx.state.config.models[model.upstream]?.agent === true);
  if (!charge(ctx, planPrice(ctx, model.upstream, plan))) return;
  // LiteLLM's cost header and OpenRouter's usage.cost come with chat-completions answers as with Messages.
  if (ctx.dialect?.account === 'litellm') ctx.res.setHeader('x-litellm-response-cost', String(ctx.entry.charged ?? 0));
  const id = newId('chatcmpl-emu');
  const created = Math.floor(Date.now() / 1000);
  if (body.stream === true) {
    ctx.entry.stream = true;
    const includeUsage =
      (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true ||
      ctx.dialect?.name === 'one-api';
    await streamChunks(ctx, { id, created, model: model.visible }, plan, includeUsage);
    return;
  }
  const text = plan.blocks
    .filter((b) => b.type === 'text')
    .map((b) => b.pieces.join(''))
    .join('');
  const thinking = plan.blocks
    .filter((b) => b.type === 'thinking')
    .map((b) => b.pieces.join(''))
    .join('');
  const calls = plan.blocks.filter((b) => b.type === 'tool_use').map(toolCall);
  sendJson(ctx, 200, {
    id,
    object: 'chat.completion',
    created,
    model: model.visible,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text,
          ...(thinking ? { reasoning_content: thinking } : {}),
          ...(calls.length ? { tool_calls: calls } : {}),
        },
        finish_reason: FINISH[plan.stopReason],
      },
    ],
    usage: usage(ctx, plan, plan.outputTokens),
  });
}

/** A reasoning model (reasoningModel.ts): 400 as DeepSeek answers when a tool call's reasoning_content is missing. */
function reasoningCameBack(ctx: Ctx, upstream: string, form: Json): boolean {
  if (!ctx.state.config.models[upstream]?.thinks) return true;
  form.thinking = { type: 'enabled', budget_tokens: 1024 };
  const missing = missingReasoning(form.messages as Json[]);
  if (missing === undefined) return true;
  sendError(
    ctx,
    400,
    `Missing \`reasoning_content\` field in the assistant message at message index ${missing}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`,
    'invalid_request_error',
  );
  return false;
}

function toolCall(b: FinalBlock): Json {
  return { id: b.id, type: 'function', function: { name: b.name, arguments: b.pieces.join('') } };
}

function usage(ctx: Ctx, plan: ReplyPlan, output: number): Json {
  logUsage(ctx, uncachedInput(plan.inputTokens), output);
  return {
    prompt_tokens: plan.inputTokens,
    completion_tokens: output,
    total_tokens: plan.inputTokens + output,
    prompt_tokens_details: { cached_tokens: 0 },
    ...(ctx.dialect?.account === 'openrouter' ? { cost: ctx.entry.charged ?? 0 } : {}),
  };
}

/**
 * The request in the Messages form the planner reads: system / developer messages joined into `system` (so a
 * project's instructions reach the scripted model as over Messages), user parts as text / image blocks, an
 * assistant's tool_calls as tool_use blocks, `role: "tool"` messages as tool_result blocks of one user message.
 * Answers 400 (OpenAI style) for a body without model or messages.
 */
function toMessagesForm(ctx: Ctx, body: Json): Json | undefined {
  const fail = (m: string): undefined => {
    sendError(ctx, 400, m, 'invalid_request');
    return undefined;
  };
  if (typeof body.model !== 'string' || !body.model) return fail('model: Field required');
  ctx.entry.model = body.model;
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return fail('messages: at least one message is required');
  const messages: Json[] = [];
  const system: string[] = [];
  for (const [i, raw] of (body.messages as unknown[]).entries()) {
    const m = (raw ?? {}) as Json;
    if (m.role === 'system' || m.role === 'developer') {
      system.push(textOf(m.content));
      continue;
    }
    if (m.role === 'tool') {
      const result = { type: 'tool_result', tool_use_id: String(m.tool_call_id ?? ''), content: textOf(m.content) };
      const last = messages[messages.length - 1];
      if (last?.role === 'user' && Array.isArray(last.content) && last.content.every(isToolResult))
        (last.content as Json[]).push(result);
      else messages.push({ role: 'user', content: [result] });
      continue;
    }
    if (m.role !== 'user' && m.role !== 'assistant')
      return fail(`messages.${i}.role: must be 'system', 'user', 'assistant' or 'tool'`);
    const blocks: Json[] = partsOf(m.content);
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls as Json[]) {
        const fn = (c?.function ?? {}) as Json;
        let input: unknown = {};
        try {
          input = JSON.parse(String(fn.arguments ?? '{}'));
        } catch {
          return fail(`messages.${i}.tool_calls: arguments must be a JSON string`);
        }
        blocks.push({ type: 'tool_use', id: String(c?.id ?? ''), name: String(fn.name ?? ''), input });
      }
    }
    // DeepSeek's thinking mode: the reasoning of the turn's tool calls comes back as reasoning_content.
    if (m.role === 'assistant' && typeof m.reasoning_content === 'string' && m.reasoning_content !== '')
      blocks.unshift({ type: 'thinking', thinking: m.reasoning_content });
    messages.push({ role: m.role, content: blocks });
  }
  if (messages.length === 0) return fail('messages: at least one user message is required');
  const tools = Array.isArray(body.tools)
    ? (body.tools as Json[]).map((t) => {
        const fn = (t?.function ?? {}) as Json;
        return { name: fn.name, description: fn.description, input_schema: fn.parameters ?? {} };
      })
    : undefined;
  const toolChoice = toolChoiceOf(body.tool_choice, (choice) =>
    typeof choice === 'object' && choice !== null
      ? { type: 'tool', name: ((choice as Json).function as Json | undefined)?.name }
      : undefined,
  );
  const max = Number(body.max_completion_tokens ?? body.max_tokens ?? 4096);
  if (!Number.isInteger(max) || max < 1) return fail('max_tokens: must be a positive integer');
  return {
    model: body.model,
    max_tokens: max,
    messages,
    ...(system.length ? { system: system.join('\n\n') } : {}),
    ...(tools ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(body.stop !== undefined ? { stop_sequences: typeof body.stop === 'string' ? [body.stop] : body.stop } : {}),
  };
}

function isToolResult(b: unknown): boolean {
  return (b as Json | undefined)?.type === 'tool_result';
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Json[])
    .filter((p) => p?.type === 'text')
    .map((p) => String(p.text ?? ''))
    .join('\n');
}

function partsOf(content: unknown): Json[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return (content as Json[]).flatMap((p): Json[] => {
    if (p?.type === 'text') return [{ type: 'text', text: String(p.text ?? '') }];
    if (p?.type === 'image_url') {
      return [dataUrlImage(String(((p.image_url ?? {}) as Json).url ?? ''))];
    }
    return [];
  });
}

interface Head {
  id: string;
  created: number;
  model: string;
}

/** Streams the plan as chat.completion chunks, paced like the Messages stream; stops when the client goes. */
async function streamChunks(ctx: Ctx, head: Head, plan: ReplyPlan, includeUsage: boolean): Promise<void> {
  const sse = new SseWriter(ctx, { chat: true });
  const { perDelta, pause } = pacing(ctx);
  const chunk = (delta: Json, finish: string | null = null): Json => ({
    id: head.id,
    object: 'chat.completion.chunk',
    created: head.created,
    model: head.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  if (!sse.send('chunk', chunk({ role: 'assistant', content: '' }))) return;
  let emitted = 0;
  let toolIndex = 0;
  for (const block of plan.blocks) {
    if (block.type === 'tool_use') {
      const index = toolIndex++;
      const first = { index, id: block.id ?? `call_${randomBytes(8).toString('hex')}`, type: 'function' };
      if (!sse.send('chunk', chunk({ tool_calls: [{ ...first, function: { name: block.name, arguments: '' } }] })))
        return;
      for (const piece of block.pieces) {
        if (pause > 0) await sleep(pause / perDelta);
        if (!sse.send('chunk', chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))) return;
        emitted++;
      }
      continue;
    }
    const field = block.type === 'thinking' ? 'reasoning_content' : 'content';
    for (let i = 0; i < block.pieces.length; i += perDelta) {
      if (pause > 0) await sleep(pause);
      const piece = block.pieces.slice(i, i + perDelta).join('');
      if (!sse.send('chunk', chunk({ [field]: piece }))) return;
      emitted += Math.min(perDelta, block.pieces.length - i);
    }
  }
  if (!sse.send('chunk', chunk({}, FINISH[plan.stopReason]))) return;
  if (includeUsage) {
    const u = usage(ctx, plan, Math.max(emitted, plan.outputTokens));
    if (
      !sse.send('usage', {
        id: head.id,
        object: 'chat.completion.chunk',
        created: head.created,
        model: head.model,
        choices: [],
        usage: u,
      })
    )
      return;
  }
  sse.finishChat();
}
