// Reasoning effort per model (setting modelGateway.models.reasoning), as each dialect spells it
// (docs/gateway-protocol.md#reasoning): chat-completions `reasoning_effort`, Responses `reasoning.effort`,
// Messages `thinking.budget_tokens`. `off` (or nothing set) sends nothing: the model's own default.
import type { MessageParam, ReasoningEffort } from '../types';

export type { ReasoningEffort } from '../types';
export const REASONING_EFFORTS: readonly ReasoningEffort[] = ['low', 'medium', 'high', 'off'];

/** The Messages thinking budget of an effort (a share of max_tokens, at least the API's 1024), or undefined. */
export function thinkingBudget(effort: ReasoningEffort | undefined, maxTokens: number): number | undefined {
  if (!effort || effort === 'off') return undefined;
  const share = effort === 'low' ? 0.25 : effort === 'medium' ? 0.5 : 0.8;
  const budget = Math.floor(maxTokens * share);
  // The budget must be at least 1024 and below max_tokens.
  return budget >= 1024 && budget < maxTokens ? budget : undefined;
}

/** The effort as chat-completions and Responses take it, or undefined for none. */
export function openAiEffort(effort: ReasoningEffort | undefined): 'low' | 'medium' | 'high' | undefined {
  return effort && effort !== 'off' ? effort : undefined;
}

/**
 * Index of the first message of the current turn: the last user message that is not only tool results (the
 * user's own words). Reasoning goes back for the assistant messages after it (DeepSeek: earlier turns' reasoning
 * is dropped; within a tool-calling turn it must be sent back), and is left out before it.
 */
export function turnStart(messages: readonly MessageParam[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string' || m.content.some((b) => b.type !== 'tool_result')) return i;
  }
  return 0;
}

// Words of a 400 that names the reasoning parameter this client sent.
const REASONING_WORDS = /reasoning|thinking|budget_tokens|effort/i;

/** The one sentence added to a 400 that rejects the reasoning parameter (never retried without it). */
export function reasoningRejected(status: number | undefined, serverMessage: string | undefined): boolean {
  return status === 400 && REASONING_WORDS.test(serverMessage ?? '');
}

export const REASONING_REJECTED_SENTENCE =
  'The gateway rejected the reasoning effort set for this model (modelGateway.models.reasoning): set it to "off" or remove the entry for this model.';
