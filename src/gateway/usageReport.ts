// Usage that says nothing: some routers send input and output tokens of 0 on a message that has content
// (docs/gateway-protocol.md#real-gateways). Zero there means "not reported by the gateway", not "free":
// the chat shows it so, and the agent's token budget counts an estimate instead.
import type { Usage } from './types';

const COUNT_FIELDS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'];

/** True when every count is missing or 0 while the message has content: the gateway did not report usage. */
export function usageUnreported(usage: Usage | undefined, content: readonly unknown[] | undefined): boolean {
  if (!content || content.length === 0) return false;
  const counts = (usage ?? {}) as Record<string, unknown>;
  return COUNT_FIELDS.every((field) => counts[field] === undefined || counts[field] === null || counts[field] === 0);
}
