// Usage that says nothing: some routers send input and output tokens of 0 on a message that has content
// (docs/gateway-protocol.md#real-gateways). Zero there means "not reported by the gateway", not "free":
// the chat shows it so, and the agent's token budget counts an estimate instead.
import { tokensOfWeight, weightedChars } from '../shared/tokenEstimate';
import type { TokenCounts } from '../shared/tokens';
import { tokenCountsOf } from './pricing';
import type { Message, Usage } from './types';

const COUNT_FIELDS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'];

/** True when every count is missing or 0 while the message has content: the gateway did not report usage. */
export function usageUnreported(usage: Usage | undefined, content: readonly unknown[] | undefined): boolean {
  if (!content || content.length === 0) return false;
  const counts = (usage ?? {}) as Record<string, unknown>;
  return COUNT_FIELDS.every((field) => counts[field] === undefined || counts[field] === null || counts[field] === 0);
}

/** Output tokens of a message estimated from what streamed (its text, thinking and tool inputs), by the one estimate. */
export function streamedOutputEstimate(message: Message | undefined): number {
  let weight = 0;
  for (const block of message?.content ?? []) {
    const b = block as { type?: string; text?: unknown; thinking?: unknown; input?: unknown };
    if (typeof b.text === 'string') weight += weightedChars(b.text);
    if (typeof b.thinking === 'string') weight += weightedChars(b.thinking);
    if (b.type === 'tool_use' && b.input !== undefined) weight += weightedChars(JSON.stringify(b.input) ?? '');
  }
  return tokensOfWeight(weight);
}

/**
 * The usage of a message that did not finish (stopped, cut): a Messages stream reports its output tokens in the last
 * message_delta, so until then only message_start's placeholder (often 1) is known. The ledger and the price count
 * what streamed instead, whenever it is more than the gateway reported; `estimated` says so.
 */
export function unfinishedUsageReport(message: Message): { usage: Usage | undefined; estimated: boolean } {
  const reported = message.usage?.output_tokens;
  const estimate = streamedOutputEstimate(message);
  if (estimate <= (typeof reported === 'number' && reported > 0 ? reported : 0))
    return { usage: message.usage, estimated: false };
  return { usage: { ...(message.usage ?? { input_tokens: 0 }), output_tokens: estimate } as Usage, estimated: true };
}

/**
 * The usage of a message that did not finish (stopped, cut): a Messages stream reports output tokens in its last
 * message_delta, so until then only message_start's placeholder (often 1) is known. What streamed is counted instead,
 * marked as an estimate, whenever it is more than the gateway reported (the chat's and the agent's token counts;
 * unfinishedUsageReport above is the same rule on the wire's Usage, for the ledger and the price).
 */
export function unfinishedUsage(message: Message | undefined): TokenCounts {
  const reported = tokenCountsOf(message?.usage);
  const estimate = streamedOutputEstimate(message);
  return estimate > reported.output ? { ...reported, output: estimate, estimated: true } : reported;
}
