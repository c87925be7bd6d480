// Plans a Messages reply from the request: blocks, max_tokens and stop sequences applied, usage counted.

import { randomBytes } from 'node:crypto';
import { planAgentTurn, type OfferedTool } from './models/agentScript';
import { chatFillAnswer } from './models/coder';
import { inputTokens } from './promptCache';
import { applySystemRules, systemRules } from './models/systemRules';
import { describeImages, imagesOf } from './models/vision';
import {
  parseDirectives,
  replyOfLength,
  splitJson,
  standardReply,
  thinkingText,
  tokenize,
  toolInput,
} from './models/text';

export interface FinalBlock {
  type: 'thinking' | 'text' | 'tool_use';
  /** Token pieces (text / thinking) or JSON pieces (tool_use); their concatenation is the block content. */
  pieces: string[];
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
}

export interface ReplyPlan {
  blocks: FinalBlock[];
  stopReason: 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';
  stopSequence: string | null;
  inputTokens: number;
  outputTokens: number;
  /** Stream the tool_use blocks' input fragments interleaved (the scripted agent's @interleave). */
  interleave?: boolean;
}

interface MessageLike {
  role?: unknown;
  content?: unknown;
}

/** Text of a message: a string, or the text of its text / tool_result blocks. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: { type?: string; text?: unknown; content?: unknown }) => {
      if (b?.type === 'text' && typeof b.text === 'string') return b.text;
      if (b?.type === 'tool_result') return messageText(b.content);
      return '';
    })
    .filter(Boolean)
    .join('\n');
}

function lastUser(messages: MessageLike[]): MessageLike | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return messages[i];
  return undefined;
}

export function lastUserText(messages: MessageLike[]): string {
  return messageText(lastUser(messages)?.content);
}

/** What the last user message's images are (size and hash of the bytes received: tests check what arrived). */
function imageLines(messages: MessageLike[]): string[] {
  return describeImages(imagesOf(lastUser(messages)?.content));
}

/** Tool definitions, system and messages (tool inputs as JSON), 3 tokens of framing per message. */
function inputTokenCount(body: Record<string, unknown>): number {
  return inputTokens(body);
}

/** Cuts text at the first stop sequence found. */
function applyStopSequences(text: string, stops: unknown): { text: string; hit: string | null } {
  if (!Array.isArray(stops)) return { text, hit: null };
  let cut = -1;
  let hit: string | null = null;
  for (const s of stops) {
    if (typeof s !== 'string' || !s) continue;
    const at = text.indexOf(s);
    if (at >= 0 && (cut < 0 || at < cut)) {
      cut = at;
      hit = s;
    }
  }
  return cut >= 0 ? { text: text.slice(0, cut), hit } : { text, hit: null };
}

function pickTool(body: Record<string, unknown>): { name: string; input_schema?: unknown } | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ name?: unknown; input_schema?: unknown }>) : [];
  const choice = body.tool_choice as { type?: string; name?: string } | undefined;
  const named = choice?.type === 'tool' ? tools.find((t) => t.name === choice.name) : undefined;
  const tool = named ?? tools.find((t) => typeof t.name === 'string');
  return tool ? { name: String(tool.name), input_schema: tool.input_schema } : undefined;
}

/**
 * Builds the reply for a validated request body (model = the visible id). `agent`: the model is a scripted
 * agent model (it also summarises tool_results without directives); any chat model follows agent directives.
 */
export function planReply(body: Record<string, unknown>, model: string, agent = false): ReplyPlan {
  const scripted = planAgentReply(body, agent);
  if (scripted) return scripted;
  const userText = lastUserText(body.messages as MessageLike[]);
  const d = parseDirectives(userText);
  const wantsThinking = d.thinking || (body.thinking as { type?: string } | undefined)?.type === 'enabled';
  const choice = (body.tool_choice as { type?: string } | undefined)?.type;
  // Like upstream: tool_choice any/tool forces a call, none forbids it; otherwise the [[tool]] directive asks.
  const wantsTool = choice !== 'none' && (d.tool || choice === 'any' || choice === 'tool');
  const tool = wantsTool ? pickTool(body) : undefined;
  const base = applySystemRules(
    chatFillAnswer(userText) ?? standardReply(userText, model, imageLines(body.messages as MessageLike[])),
    { ...systemRules(body.system), checklist: false },
    userText,
  );
  const stopped = applyStopSequences(
    d.tokens !== undefined ? replyOfLength(base, d.tokens) : base,
    body.stop_sequences,
  );
  const planned: FinalBlock[] = [];
  if (wantsThinking) planned.push({ type: 'thinking', pieces: tokenize(thinkingText(userText)) });
  if (tool) {
    const input = toolInput(tool.input_schema, userText);
    planned.push({ type: 'text', pieces: tokenize(`I will call the tool \`${tool.name}\`.`) });
    planned.push({
      type: 'tool_use',
      id: `toolu_${randomBytes(12).toString('hex')}`,
      name: tool.name,
      input,
      pieces: splitJson(JSON.stringify(input)),
    });
  } else {
    planned.push({ type: 'text', pieces: tokenize(stopped.text) });
  }
  return budget(
    planned,
    Number(body.max_tokens),
    inputTokenCount(body),
    tool ? 'tool_use' : stopped.hit !== null ? 'stop_sequence' : 'end_turn',
    tool ? null : stopped.hit,
  );
}

function offeredTools(body: Record<string, unknown>): OfferedTool[] {
  // tool_choice none: the model may not call any tool this time.
  if ((body.tool_choice as { type?: string } | undefined)?.type === 'none' || !Array.isArray(body.tools)) return [];
  return (body.tools as Array<{ name?: unknown; input_schema?: unknown }>)
    .filter((t) => typeof t?.name === 'string')
    .map((t) => ({ name: t.name as string, input_schema: t.input_schema }));
}

/** The scripted agent's reply (agentScript.ts), or undefined when the conversation is not scripted. */
function planAgentReply(body: Record<string, unknown>, agent: boolean): ReplyPlan | undefined {
  const found = planAgentTurn(body.messages as MessageLike[], offeredTools(body), agent);
  if (!found) return undefined;
  const turn =
    found.kind === 'final'
      ? { ...found, text: applySystemRules(found.text, systemRules(body.system), found.task ?? '') }
      : found;
  const planned: FinalBlock[] = [];
  if ((body.thinking as { type?: string } | undefined)?.type === 'enabled')
    planned.push({ type: 'thinking', pieces: tokenize(thinkingText(turn.text)) });
  planned.push({ type: 'text', pieces: tokenize(turn.text) });
  if (turn.kind === 'tools') {
    for (const c of turn.calls)
      planned.push({
        type: 'tool_use',
        id: c.id,
        name: c.name,
        input: c.input,
        pieces: splitJson(JSON.stringify(c.input)),
      });
  }
  const plan = budget(
    planned,
    Number(body.max_tokens),
    inputTokenCount(body),
    turn.kind === 'tools' ? 'tool_use' : 'end_turn',
    null,
  );
  return turn.kind === 'tools' && turn.interleave ? { ...plan, interleave: true } : plan;
}

/** Applies max_tokens over all blocks; a tool call that does not fit is dropped whole (no broken JSON). */
function budget(
  blocks: FinalBlock[],
  maxTokens: number,
  inputTokens: number,
  natural: ReplyPlan['stopReason'],
  stopSequence: string | null,
): ReplyPlan {
  let left = maxTokens;
  const out: FinalBlock[] = [];
  let cut = false;
  for (const b of blocks) {
    if (left <= 0 || (b.type === 'tool_use' && b.pieces.length > left)) {
      cut = true;
      break;
    }
    const pieces = b.pieces.slice(0, left);
    if (pieces.length < b.pieces.length) cut = true;
    out.push({ ...b, pieces });
    left -= pieces.length;
    if (cut) break;
  }
  const outputTokens = maxTokens - left;
  return cut
    ? { blocks: out, stopReason: 'max_tokens', stopSequence: null, inputTokens, outputTokens }
    : { blocks: out, stopReason: natural, stopSequence, inputTokens, outputTokens };
}

/** The block as it appears in a non-streaming body. */
export function blockJson(b: FinalBlock): Record<string, unknown> {
  const content = b.pieces.join('');
  if (b.type === 'thinking') return { type: 'thinking', thinking: content, signature: signatureFor(content) };
  if (b.type === 'tool_use') return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
  return { type: 'text', text: content };
}

export function signatureFor(thinking: string): string {
  return Buffer.from(`emulator:${thinking.length}`).toString('base64');
}
