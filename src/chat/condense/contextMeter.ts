// The context meter's figures (pure): how much of the model's input window the open conversation's next request
// uses, by the estimate the condenser decides with (the history with its latest summary instead of the turns it
// covers, as buildMessagesRequest sends it; project instructions and an agent's tools come on top), and the share
// past which older turns are condensed. Both are calibrated by the conversation's last reported input tokens
// (historyCalibration).
import { calibrationOf, estimateTokens } from '../../shared/tokenEstimate';
import type { ChatMessage, ConversationSettings, HostToWebviewMessage } from '../../shared/protocol/chat';
import { condensedHistory } from './condense';
import { planCondense, withSummary } from './condenser';
import { buildMessagesRequest, type ImageBytes } from '../ask/requestBuilder';

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

/**
 * `window`: the model's whole window (input + max tokens, what condensing counts against); `shownWindow`: the window
 * the meter names, which does not move with max tokens (the listed input limit, else the listed or default window).
 * After an agent turn the last request's reported input (input + cache read + cache write) and its output stand for
 * the history: it carried the tools, the system prompt and every call's result, which the estimate leaves out.
 */
export function contextUse(
  history: readonly ChatMessage[],
  settings: ConversationSettings,
  images: ImageBytes,
  window: number,
  threshold: number,
  shownWindow = window,
): ContextUse {
  const whole = withSummary(condensedHistory(history));
  const estimate = whole.length
    ? estimateTokens(buildMessagesRequest(whole, settings, images), historyCalibration(history, settings, images))
    : 0;
  const used = Math.max(estimate, afterAgentTurn(history, settings, images) ?? 0);
  return {
    used,
    window: Math.max(1, shownWindow),
    condenseAt: Math.round(threshold * Math.max(1, window - settings.maxTokens)),
    // Condense now has something to summarise (more turns than the ones always kept whole): else the meter says why.
    condensable: planCondense(history).cut !== undefined,
  };
}

/** The index of the last answer that has ended (one in progress or waiting has no count yet), or -1. */
function lastEndedAnswer(history: readonly ChatMessage[]): number {
  let i = history.length - 1;
  while (i >= 0 && (history[i].role !== 'assistant' || ['streaming', 'queued'].includes(history[i].status))) i--;
  return i;
}

/**
 * After a finished agent turn: its last reported request (input + cache read + cache write + output), and the
 * estimate of what came after it (a question waiting); undefined when the last answer is not such a turn.
 */
function afterAgentTurn(
  history: readonly ChatMessage[],
  settings: ConversationSettings,
  images: ImageBytes,
): number | undefined {
  const i = lastEndedAnswer(history);
  const last = history[i]?.agent?.steps.at(-1)?.tokens;
  if (!last || last.estimated || last.input + last.cacheRead + last.cacheWrite === 0) return undefined;
  const after = history.slice(i + 1);
  const rest = after.length ? estimateTokens(buildMessagesRequest(after, settings, images)) : 0;
  return last.input + last.cacheRead + last.cacheWrite + last.output + rest;
}

/**
 * The conversation's calibration of the token estimate: the input tokens the gateway reported for the last answer ÷
 * our estimate of the request it answered (its history as buildMessagesRequest sends it). Only an Ask answer that
 * the gateway counted and that condensed nothing is one request with a known history; after any other last answer
 * (an agent turn of many requests, a failure, a stop) undefined: the heuristic applies as it is. Project
 * instructions are not in the estimate, so a calibration taken with them errs high (the safe side).
 */
export function historyCalibration(
  history: readonly ChatMessage[],
  settings: ConversationSettings,
  images: ImageBytes,
): number | undefined {
  // The answer in progress (or waiting) has no count yet: the one before it calibrates.
  const i = lastEndedAnswer(history);
  const m = history[i];
  const u = m?.usage;
  if (!u || u.estimated || u.notReported || m.agent || m.condensed || m.status !== 'complete') return undefined;
  const asked = withSummary(condensedHistory(history.slice(0, i)));
  const estimate = estimateTokens(buildMessagesRequest(asked, settings, images));
  return calibrationOf(u.input + u.cacheRead + u.cacheWrite, estimate);
}
