// The context meter's figures (pure): how much of the model's input window the open conversation's next request
// uses, by the estimate the condenser decides with (the history with its latest summary instead of the turns it
// covers, as buildMessagesRequest sends it; project instructions and an agent's tools come on top), and the share
// past which older turns are condensed.
import { estimateTokens } from '../agent';
import type { ChatMessage, ConversationSettings, HostToWebviewMessage } from '../shared/protocol/chat';
import { condensedHistory } from './condense';
import { withSummary } from './condenser';
import { buildMessagesRequest } from './requestBuilder';

/** Messages after which the open conversation's size or model may have changed (the meter is told again). */
export const CONTEXT_CHANGES: ReadonlySet<string> = new Set([
  'snapshot',
  'streamFinished',
  'settings',
  'agentCondensed',
  'truncated',
  'messageAppended',
]);

export type ContextUse = Omit<Extract<HostToWebviewMessage, { type: 'context' }>, 'type' | 'conversationId'>;

export function contextUse(
  history: readonly ChatMessage[],
  settings: ConversationSettings,
  window: number,
  threshold: number,
): ContextUse {
  const whole = withSummary(condensedHistory(history));
  const used = whole.length ? estimateTokens(buildMessagesRequest(whole, settings)) : 0;
  return { used, inputWindow: Math.max(1, window - settings.maxTokens), threshold };
}
