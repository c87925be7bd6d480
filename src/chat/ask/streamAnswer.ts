// Reads one streamed answer (pure): forwards text and thinking deltas, then says how it ended.
import { isGatewayError } from '../../gateway/errors/errors';
import { unfinishedUsage, usageUnreported } from '../../gateway/usageReport';
import type { Message, MessageStream, StreamEvent, Usage } from '../../gateway/types';
import { tokenCountsOf } from '../../gateway/pricing';
import type { ChatUsage } from '../../shared/protocol/chat';
import { ZERO_TOKENS } from '../../shared/tokens';

export type StreamOutcome =
  | { status: 'complete'; usage?: ChatUsage; stopReason: string | null; model?: string }
  /** Ended by the user (abort). */
  | { status: 'stopped'; usage?: ChatUsage; model?: string }
  /** Failed: before any content (error) or after some (cutOff, the partial text is kept). */
  | { status: 'error' | 'cutOff'; error: unknown; usage?: ChatUsage; model?: string };

export function toChatUsage(usage: Usage | undefined, content?: readonly unknown[]): ChatUsage | undefined {
  if (usageUnreported(usage, content)) return { ...ZERO_TOKENS, notReported: true };
  if (!usage || typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') return undefined;
  return tokenCountsOf(usage);
}

/** A stopped or cut answer: what streamed counts (estimated while the gateway has not reported its output). */
function unfinishedChatUsage(message: Message | undefined): ChatUsage | undefined {
  const usage = unfinishedUsage(message);
  return message?.usage || usage.output > 0 ? usage : undefined;
}

/** The text or thinking a raw stream event adds, if any. */
export function deltaOf(event: StreamEvent): { kind: 'text' | 'thinking'; text: string } | undefined {
  if (event.type !== 'content_block_delta' || typeof event.delta !== 'object' || event.delta === null) return undefined;
  const delta = event.delta as { type?: unknown; text?: unknown; thinking?: unknown };
  if (delta.type === 'text_delta' && typeof delta.text === 'string') return { kind: 'text', text: delta.text };
  if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string')
    return { kind: 'thinking', text: delta.thinking };
  return undefined;
}

/**
 * Consumes the stream. `receivedContent` tells whether any delta arrived, which decides between
 * a failed request ('error') and a cut-off answer ('cutOff').
 */
export async function consumeStream(
  stream: MessageStream,
  onDelta: (kind: 'text' | 'thinking', text: string) => void,
  wasStopped: () => boolean,
): Promise<StreamOutcome> {
  let receivedContent = false;
  try {
    for await (const event of stream) {
      const delta = deltaOf(event);
      if (!delta) continue;
      receivedContent = true;
      onDelta(delta.kind, delta.text);
    }
    if (wasStopped()) return stoppedOutcome(stream);
    const message = await stream.finalMessage();
    return {
      status: 'complete',
      usage: toChatUsage(message.usage, message.content),
      stopReason: message.stop_reason,
      model: message.model,
    };
  } catch (error) {
    if (wasStopped() || (isGatewayError(error) && error.kind === 'aborted')) return stoppedOutcome(stream);
    const current = stream.currentMessage();
    return {
      status: receivedContent ? 'cutOff' : 'error',
      error,
      usage: unfinishedChatUsage(current),
      model: current?.model,
    };
  }
}

function stoppedOutcome(stream: MessageStream): StreamOutcome {
  const current = stream.currentMessage();
  return { status: 'stopped', usage: unfinishedChatUsage(current), model: current?.model };
}
