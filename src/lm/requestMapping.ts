// Pure: VS Code chat messages → a Messages-API request. No `vscode` import (unit-tested in plain node).
// VS Code's part classes are recognised by shape (duck typing), so this module works on the objects the
// extension host hands over and on plain test objects alike.
import type { ContentBlockParam, MessageParam, MessagesRequest, ToolDefinition } from '../gateway/types';
import { IMAGE_LIMITS, readImageHeader, type ImageMediaType } from '../shared/imageFormat';
import { stripImageMetadata } from '../shared/imageMetadata';
import { systemPrompt } from '../shared/systemPrompt';

export type NeutralRole = 'user' | 'assistant' | 'system';

export type NeutralPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  | { kind: 'toolResult'; callId: string; content: string }
  /** An image VS Code attached (a data part with an image type); base64 of its bytes. */
  | { kind: 'image'; mediaType: ImageMediaType; data: string };

export interface NeutralMessage {
  role: NeutralRole;
  parts: NeutralPart[];
}

/** VS Code's LanguageModelChatMessageRole values: User = 1, Assistant = 2; 3 = System (proposed API, sent by VS Code chat). */
export function roleFromVsCode(role: number): NeutralRole {
  if (role === 2) return 'assistant';
  if (role === 3) return 'system';
  return 'user';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const textDecoder = new TextDecoder();

/** Text of a tool-result content item: text parts, text-like data parts, anything else as JSON. */
function toolResultItemText(item: unknown): string {
  if (typeof item === 'string') return item;
  if (!isRecord(item)) return '';
  if (typeof item.value === 'string') return item.value;
  if (item.data instanceof Uint8Array && typeof item.mimeType === 'string') {
    return /^(text\/|application\/json)/.test(item.mimeType) ? textDecoder.decode(item.data) : '';
  }
  return JSON.stringify(item.value ?? item);
}

/** One content part of a VS Code message, recognised by shape; undefined for parts the gateway cannot take. */
export function partFromVsCode(part: unknown): NeutralPart | undefined {
  if (!isRecord(part)) return undefined;
  if (typeof part.callId === 'string' && typeof part.name === 'string' && 'input' in part) {
    return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  }
  if (typeof part.callId === 'string' && Array.isArray(part.content)) {
    return { kind: 'toolResult', callId: part.callId, content: part.content.map(toolResultItemText).join('') };
  }
  if (typeof part.value === 'string') return { kind: 'text', text: part.value };
  if (part.data instanceof Uint8Array && typeof part.mimeType === 'string' && part.mimeType.startsWith('image/'))
    return imagePart(part.data);
  // Other data parts (cache hints), thinking parts and future part types: not sent.
  return undefined;
}

/**
 * An image VS Code attached (models that read images declare imageInput). Its format is read from the bytes, not
 * the mime type it came with; an image of another format or above 5 MB becomes a sentence saying it was left out.
 */
function imagePart(data: Uint8Array): NeutralPart {
  const header = readImageHeader(data);
  if (!header) return { kind: 'text', text: '[An attached image was left out: not a PNG, JPEG, WebP or GIF.]' };
  if (data.length > IMAGE_LIMITS.maxBytes)
    return { kind: 'text', text: '[An attached image was left out: larger than 5 MB.]' };
  // Without its metadata (EXIF GPS, XMP, text chunks), as every image the extension sends.
  return { kind: 'image', mediaType: header.mediaType, data: Buffer.from(stripImageMetadata(data)).toString('base64') };
}

/**
 * The images among a chat request's references (@gateway): VS Code hands a pasted or attached image as a reference
 * whose value has a mime type and a data() reader (ChatReferenceBinaryData), recognised by shape.
 */
export async function imagePartsOfReferences(references: readonly unknown[] | undefined): Promise<NeutralPart[]> {
  const parts: NeutralPart[] = [];
  for (const ref of references ?? []) {
    const value = isRecord(ref) ? ref.value : undefined;
    if (!isRecord(value) || typeof value.mimeType !== 'string' || !value.mimeType.startsWith('image/')) continue;
    if (typeof value.data !== 'function') continue;
    const data: unknown = await (value.data as () => Promise<unknown>)();
    if (data instanceof Uint8Array) parts.push(imagePart(data));
  }
  return parts;
}

export function messageFromVsCode(message: { role: number; content: ReadonlyArray<unknown> }): NeutralMessage {
  const parts: NeutralPart[] = [];
  for (const raw of message.content) {
    const part = partFromVsCode(raw);
    if (part) parts.push(part);
  }
  return { role: roleFromVsCode(message.role), parts };
}

function toBlock(part: NeutralPart): ContentBlockParam | undefined {
  switch (part.kind) {
    case 'text':
      return part.text.length > 0 ? { type: 'text', text: part.text } : undefined;
    case 'toolCall':
      return { type: 'tool_use', id: part.callId, name: part.name, input: isRecord(part.input) ? part.input : {} };
    case 'toolResult':
      return { type: 'tool_result', tool_use_id: part.callId, content: part.content };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } };
  }
}

/** Tool results must open a user turn (the Messages API rejects text before them). */
function orderBlocks(role: 'user' | 'assistant', blocks: ContentBlockParam[]): ContentBlockParam[] {
  if (role !== 'user') return blocks;
  return [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')];
}

/** Plain text turns are sent as a string (the spec's form); turns with tool blocks as a block array. */
function toContent(blocks: ContentBlockParam[]): MessageParam['content'] {
  if (blocks.every((b) => b.type === 'text')) return blocks.map((b) => (b as { text: string }).text).join('\n\n');
  return blocks;
}

export interface MappedConversation {
  system?: string;
  messages: MessageParam[];
}

/**
 * System turns become the `system` field; consecutive turns of the same role are merged (the Messages API
 * wants alternating roles); empty turns are dropped.
 */
export function mapConversation(messages: readonly NeutralMessage[]): MappedConversation {
  const system: string[] = [];
  const turns: Array<{ role: 'user' | 'assistant'; blocks: ContentBlockParam[] }> = [];
  for (const message of messages) {
    if (message.role === 'system') {
      const text = message.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('');
      if (text.trim()) system.push(text);
      continue;
    }
    const blocks = message.parts.map(toBlock).filter((b): b is ContentBlockParam => b !== undefined);
    if (blocks.length === 0) continue;
    const last = turns[turns.length - 1];
    if (last && last.role === message.role) last.blocks.push(...blocks);
    else turns.push({ role: message.role, blocks });
  }
  const mapped: MappedConversation = {
    messages: turns.map((t) => ({ role: t.role, content: toContent(orderBlocks(t.role, t.blocks)) })),
  };
  if (system.length > 0) mapped.system = system.join('\n\n');
  return mapped;
}

export interface NeutralTool {
  name: string;
  description?: string;
  inputSchema?: object;
}

export function mapTools(tools: readonly NeutralTool[] | undefined): ToolDefinition[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    // The Messages API requires an object schema; VS Code allows a tool without one.
    input_schema: (tool.inputSchema as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} },
  }));
}

export interface BuildRequestInput {
  model: string;
  messages: readonly NeutralMessage[];
  maxTokens: number;
  tools?: readonly NeutralTool[];
  /** VS Code's LanguageModelChatToolMode: 1 = Auto, 2 = Required. */
  toolMode?: number;
  /** Caller's modelOptions; only known, well-typed fields are passed on. */
  modelOptions?: { readonly [name: string]: unknown };
  /** Prepended to the system turns of the conversation. */
  systemPrompt?: string;
}

function numberOption(options: BuildRequestInput['modelOptions'], ...names: string[]): number | undefined {
  for (const name of names) {
    const value = options?.[name];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
}

/** The Messages request for a conversation. Throws when nothing sendable is left (no user or assistant turn). */
export function buildMessagesRequest(input: BuildRequestInput): MessagesRequest {
  const conversation = mapConversation(input.messages);
  if (conversation.messages.length === 0) throw new Error('Nothing to send: the request has no user message.');
  const maxTokens = numberOption(input.modelOptions, 'max_tokens', 'maxTokens');
  const request: MessagesRequest = {
    model: input.model,
    max_tokens: Math.max(1, Math.floor(maxTokens ?? input.maxTokens)),
    messages: conversation.messages,
  };
  const system = systemPrompt(input.systemPrompt, conversation.system);
  if (system) request.system = system;
  const temperature = numberOption(input.modelOptions, 'temperature');
  if (temperature !== undefined) request.temperature = temperature;
  const stop = input.modelOptions?.stop;
  if (Array.isArray(stop) && stop.every((s) => typeof s === 'string') && stop.length > 0)
    request.stop_sequences = stop as string[];
  const tools = mapTools(input.tools);
  if (tools) {
    request.tools = tools;
    request.tool_choice = input.toolMode === 2 ? { type: 'any' } : { type: 'auto' };
  }
  return request;
}
