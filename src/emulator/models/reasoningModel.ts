// Reasoning models of the emulator (an upstream with `thinks: true`): they reason on every reply, and, as
// DeepSeek's thinking mode does, answer 400 when an assistant message of the current tool-calling turn comes
// back without its reasoning (chat-completions `reasoning_content`, a Responses reasoning item). Responses
// reasoning items carry encrypted content the emulator made itself and checks when it comes back.
import { createHash } from 'node:crypto';

type Json = Record<string, unknown>;

const PREFIX = 'emu-reasoning:';

/** The opaque encrypted_content of a reasoning item with this summary. */
export function encryptedFor(summary: string): string {
  return Buffer.from(PREFIX + createHash('sha256').update(summary).digest('hex').slice(0, 24)).toString('base64');
}

/** True when the content is one this emulator made. */
export function isOwnEncrypted(content: unknown): boolean {
  return typeof content === 'string' && Buffer.from(content, 'base64').toString('utf8').startsWith(PREFIX);
}

/** Index of the first message of the current turn: the last user message that is not only tool results. */
function turnStart(messages: Json[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    const content = m.content;
    if (!Array.isArray(content) || content.some((b: Json) => b?.type !== 'tool_result')) return i;
  }
  return 0;
}

/**
 * Index of an assistant message of the current turn (in the Messages form) that called tools without its
 * reasoning, or undefined when every one carries it.
 */
export function missingReasoning(messages: Json[]): number | undefined {
  for (let i = turnStart(messages) + 1; i < messages.length; i++) {
    const m = messages[i];
    if (m.role !== 'assistant' || !Array.isArray(m.content)) continue;
    const blocks = m.content as Json[];
    if (blocks.some((b) => b?.type === 'tool_use') && !blocks.some((b) => b?.type === 'thinking')) return i;
  }
  return undefined;
}
