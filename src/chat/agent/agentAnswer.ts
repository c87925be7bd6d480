// One Agent- or Plan-mode answer as the session drives it (pure): the turn runs through the agent port with the
// request's signal, its text streams into the answer and its cards go to the page in the order they happened.
// Its 429 waits happen inside the loop (shown as a countdown): a billable turn is never sent again by itself.
import { english, type Localizer } from '../../shared/l10n';
import type { AgentTurnInfo, ChatMessage, ConversationSettings } from '../../shared/protocol/chat';
import type { AgentRunner, AgentRunOutcome } from './agentPort';
import type { ChatOutput, TextWriter } from '../session/chatOutput';
import type { ChatRequest } from '../session/requestSlot';
import type { StreamOutcome } from '../ask/streamAnswer';
import type { ImageBytes } from '../ask/requestBuilder';

export interface AgentAnswer {
  agent: AgentRunner;
  settings: ConversationSettings;
  /** The conversation's stored images' bytes (read before the turn). */
  images: ImageBytes;
  /** Reads the project instructions for the answer (their prompt text). */
  instructions(): Promise<string>;
  out: ChatOutput;
  write: TextWriter;
  now(): number;
  l10n?: Localizer;
  /** Writes the conversation as it is now (mid-turn: a sub-agent started or ended). */
  save?(): void;
}

export async function runAgentAnswer(request: ChatRequest, a: AgentAnswer): Promise<StreamOutcome> {
  const { conversation, signal } = request;
  const message = request.message as ChatMessage & { agent: AgentTurnInfo };
  const history = conversation.messages.slice(0, conversation.messages.indexOf(message));
  let outcome: AgentRunOutcome;
  try {
    const instructions = await a.instructions();
    outcome = await a.agent.run({
      conversationId: conversation.id,
      message,
      history,
      images: a.images,
      mode: message.agent.mode === 'plan' ? 'plan' : 'agent',
      instructions,
      settings: a.settings,
      signal,
      sink: {
        // Text streamed so far goes out before a card, so the answer reads in the order it happened.
        post: (m) => {
          a.write.flush();
          a.out.agent(m);
        },
        text: a.write,
        now: a.now,
        save: () => {
          a.write.flush();
          a.save?.();
        },
      },
    });
  } catch (error) {
    outcome = { status: 'error', error };
  }
  a.write.flush();
  if (message.model === undefined) message.model = outcome.model ?? a.settings.model;
  const status = signal.aborted ? 'stopped' : outcome.status;
  if (status === 'stopped') return { status: 'stopped' };
  if (status === 'complete') return { status: 'complete', stopReason: null };
  const l10n = a.l10n ?? english;
  const error = outcome.error ?? new Error(message.agent.end?.message ?? l10n.t('The agent turn failed.'));
  return { status: 'error', error };
}
