// Builds the POST /v1/messages body from a conversation (pure).
import type { ImageBlockParam, MessageParam, MessagesRequest, TextBlockParam } from '../../gateway/types';
import type { ChatAttachment, ChatMessage, ConversationSettings } from '../../shared/protocol/chat';
import { agentSummaries } from '../agent/agentSummary';
import { systemPrompt } from '../../shared/systemPrompt';

/** The attachment as the model reads it: path, language and lines, then the text in a fence long enough not to close early. */
export function formatAttachment(attachment: ChatAttachment): string {
  const longestRun = Math.max(2, ...[...attachment.text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  const lines =
    attachment.startLine !== undefined
      ? ` (lines ${attachment.startLine}-${attachment.endLine ?? attachment.startLine})`
      : '';
  return `${attachmentLabel(attachment.kind, attachment.path)}${lines}:\n${fence}${attachment.languageId}\n${attachment.text}\n${fence}`;
}

/** The words that introduce an attachment of this kind to the model. */
export function attachmentLabel(kind: ChatAttachment['kind'], path: string): string {
  return LABELS[kind](path);
}

/** How each kind of attachment is introduced to the model (English, as the tools' words are). */
const LABELS: Record<ChatAttachment['kind'], (path: string) => string> = {
  file: (path) => `File \`${path}\``,
  selection: (path) => `Selection from \`${path}\``,
  folder: (path) => `Listing of the folder \`${path}\``,
  problems: () => 'Problems in the workspace (path:line:column severity message)',
  terminal: (path) => `Output of the last command in the terminal \`${path}\``,
  changes: (path) => `Uncommitted changes (git diff against HEAD) in \`${path}\``,
  image: (path) => `Image \`${path}\``,
};

type UserBlock = TextBlockParam | ImageBlockParam;

/**
 * The base64 of a stored image by hash, or undefined when it is not stored: the session's ImageStore, which reads a
 * conversation's images before each request. Passed by each caller (no module state: several sessions, sub-agents
 * and tests build requests side by side).
 */
export type ImageBytes = (hash: string) => string | undefined;

/** No stored images: every image attachment is sent as a note that it is gone. */
export const NO_IMAGES: ImageBytes = () => undefined;

/** The bytes an image store holds (the chat's ImageStore), or NO_IMAGES without one. */
export function imageBytesOf(store: { base64(hash: string): string | undefined } | undefined): ImageBytes {
  return store ? (hash) => store.base64(hash) : NO_IMAGES;
}

/** The line before an image block that names it: "Image `name` (W×H px):". */
const imageLabel = (path: string, image: { width: number; height: number }): string =>
  `${LABELS.image(path)} (${image.width}×${image.height} px):`;

/** The name and size an image label (imageLabel) says, or undefined for any other text. */
export function readImageLabel(text: string): { path: string; width: number; height: number } | undefined {
  const m = /^Image `(.*)` \((\d+)×(\d+) px\):$/s.exec(text);
  return m ? { path: m[1], width: Number(m[2]), height: Number(m[3]) } : undefined;
}

/** An image attachment as the model reads it: a line naming it, then the image (or a note that it is gone). */
function imageBlocks(attachment: ChatAttachment, images: ImageBytes): UserBlock[] {
  const image = attachment.image;
  const data = image && images(image.hash);
  if (!image || data === undefined) {
    const size = image ? ` (${image.width}×${image.height} px)` : '';
    return [{ type: 'text', text: `${LABELS.image(attachment.path)}${size}: no longer stored, not sent.` }];
  }
  return [
    { type: 'text', text: imageLabel(attachment.path, image) },
    { type: 'image', source: { type: 'base64', media_type: image.mediaType, data } },
  ];
}

/** A user turn's content: attachments first, then the question; blocks when it carries an image, else one string. */
export function userContent(message: ChatMessage, images: ImageBytes): string | UserBlock[] {
  const attachments = message.attachments ?? [];
  if (!attachments.some((a) => a.kind === 'image')) {
    const parts = attachments.map(formatAttachment);
    if (message.text.trim()) parts.push(message.text);
    return parts.join('\n\n');
  }
  const blocks: UserBlock[] = attachments.flatMap((a): UserBlock[] =>
    a.kind === 'image' ? imageBlocks(a, images) : [{ type: 'text', text: formatAttachment(a) }],
  );
  if (message.text.trim()) blocks.push({ type: 'text', text: message.text });
  return blocks;
}

const isEmpty = (content: MessageParam['content']): boolean =>
  typeof content === 'string' ? !content.trim() : content.length === 0;
const blocksOf = (content: MessageParam['content']): Exclude<MessageParam['content'], string> =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;

/**
 * The messages array for a request: user/assistant alternating, starting with a user turn.
 * Failed answers without text are left out (their question merges with the next one); partial
 * answers (stopped, cut off) are kept as they were shown. An agent answer starts with a plain-text note of its
 * tool calls (agentSummary.ts): a request without tools cannot carry tool_use blocks, and the model should
 * still know what it did. `notes` lets a caller that sends only part of the history share one size budget.
 */
export function toMessageParams(
  messages: ChatMessage[],
  images: ImageBytes,
  notes: ReadonlyMap<ChatMessage, string> = agentSummaries(messages),
): MessageParam[] {
  const params: MessageParam[] = [];
  for (const message of messages) {
    const note = notes.get(message);
    const text = message.role === 'user' ? userContent(message, images) : message.text;
    const content = note === undefined || typeof text !== 'string' ? text : text.trim() ? `${note}\n\n${text}` : note;
    if (isEmpty(content)) continue;
    const last = params[params.length - 1];
    if (last && last.role === message.role) {
      last.content =
        typeof last.content === 'string' && typeof content === 'string'
          ? `${last.content}\n\n${content}`
          : [...blocksOf(last.content), ...blocksOf(content)];
    } else if (params.length > 0 || message.role === 'user') {
      params.push({ role: message.role, content });
    }
  }
  // The API rejects a final assistant turn that ends in whitespace (used as a prefill by Continue).
  const last = params[params.length - 1];
  if (last && last.role === 'assistant' && typeof last.content === 'string') last.content = last.content.trimEnd();
  return params;
}

/**
 * `images`: the stored images' bytes (NO_IMAGES where only the request's shape matters); `instructions`: the project
 * instructions' prompt text (AGENTS.md, …), before the conversation's system prompt.
 */
export function buildMessagesRequest(
  messages: ChatMessage[],
  settings: ConversationSettings,
  images: ImageBytes,
  instructions = '',
): MessagesRequest {
  const request: MessagesRequest = {
    model: settings.model,
    max_tokens: settings.maxTokens,
    messages: toMessageParams(messages, images),
  };
  const system = systemPrompt(instructions, settings.systemPrompt);
  if (system) request.system = system;
  return request;
}
