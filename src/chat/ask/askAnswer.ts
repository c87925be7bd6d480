// One Ask answer (pure): the history it sends (condensed first past the threshold of the model's window), the
// request, its streamed text, and how it ended with its usage and cost.
import { estimateTokens } from '../../shared/tokenEstimate';
import { historyCalibration } from '../condense/contextMeter';
import type { GatewayClient, Logger, WaitNotice } from '../../gateway/types';
import type { ChatCost } from '../../shared/money';
import type { ChatMessage, ConversationSettings } from '../../shared/protocol/chat';
import type { TextWriter } from '../session/chatOutput';
import { condense, planCondense, type CondenseRun } from '../condense/condenser';
import type { ChatRequest } from '../session/requestSlot';
import { buildMessagesRequest, type ImageBytes } from './requestBuilder';
import { consumeStream, type StreamOutcome } from './streamAnswer';

export interface AskAnswer {
  client: GatewayClient;
  settings: ConversationSettings;
  /** The project instructions' prompt text ('' when none). */
  instructions: string;
  /** The conversation before the answer; with `prefill`, it ends with the answer, which the model goes on from. */
  history: ChatMessage[];
  /** Its stored images' bytes (read before the request). */
  images: ImageBytes;
  prefill: boolean;
  /** The model's window for input (its context window less max_tokens) and the share past which to condense. */
  inputWindow: number;
  threshold: number;
  /** A condensing before the answer: its request's history, cost, and the summary card on this answer. */
  condense: CondenseRun;
  /** The cost the usage ledger recorded for the client's last response (taken once). */
  recordedCost(): ChatCost | undefined;
  /** The client waits before sending (a 429's Retry-After). */
  onWait(notice: WaitNotice): void;
  write: TextWriter;
  log?: Logger;
}

export async function streamAsk(request: ChatRequest, a: AskAnswer): Promise<StreamOutcome> {
  const { message, signal } = request;
  const sent = a.prefill ? a.history : await askHistory(request, a);
  if (signal.aborted) return { status: 'stopped' };
  a.recordedCost(); // a condensing request's, if it failed after the ledger recorded it
  const stream = a.client.streamMessage(buildMessagesRequest(sent, a.settings, a.images, a.instructions), {
    signal,
    onWait: a.onWait,
    usageKind: 'chat',
  });
  const outcome = await consumeStream(stream, a.write, () => signal.aborted);
  a.write.flush();
  if (message.model === undefined) message.model = a.settings.model;
  const cost = a.recordedCost();
  if ('usage' in outcome && outcome.usage && cost) outcome.usage.cost = cost;
  return outcome;
}

/**
 * The history the answer sends: the latest summary instead of the turns it covers; past the threshold, the older
 * turns condensed first (in the answer's request slot, so Stop ends it). A failed condensing request is logged and
 * the answer goes out with the history as it was.
 */
async function askHistory(request: ChatRequest, a: AskAnswer): Promise<ChatMessage[]> {
  const calibration = historyCalibration(a.history, a.settings, a.images);
  const estimate = (whole: ChatMessage[]): number =>
    estimateTokens(buildMessagesRequest(whole, a.settings, a.images, a.instructions), calibration);
  const { whole, cut } = planCondense(a.history, { estimate, inputWindow: a.inputWindow, threshold: a.threshold });
  if (!cut) return whole;
  try {
    const condensed = await condense(cut, a.condense);
    return condensed ?? whole;
  } catch (error) {
    if (!request.signal.aborted) a.log?.error('chat: condensing failed', error);
    return whole;
  }
}
