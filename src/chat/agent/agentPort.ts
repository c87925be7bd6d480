// The agent side as the chat session sees it (pure): what a turn gets, how it ends, and the turn records the session
// keeps in step with its history. src/chat/agent/agentTurn.ts implements it through src/agent and src/agentHost.
import type { MessageParam } from '../../gateway/types';
import type { AgentAvailability, AgentTurnInfo, ChatMessage, ConversationSettings } from '../../shared/protocol/chat';
import type { PendingChangeView } from '../../shared/protocol/chat';
import type { AgentEventSink } from './agentEvents';
import type { ImageBytes } from '../ask/requestBuilder';

export interface AgentRunContext {
  conversationId: string;
  /** The answer being written; its `agent` record is the turn's state. */
  message: ChatMessage & { agent: AgentTurnInfo };
  /** The conversation before the answer (ends with the question). */
  history: ChatMessage[];
  /** Its stored images' bytes (read before the turn). */
  images: ImageBytes;
  /** agent, or plan (read-only tools; the answer ends in a checklist plan). */
  mode: 'agent' | 'plan';
  /** The project instructions' text for the system prompt ('' when none). */
  instructions: string;
  settings: ConversationSettings;
  /** Stop: closes the request and cancels the running tool. */
  signal: AbortSignal;
  sink: AgentEventSink;
}

export interface AgentRunOutcome {
  status: 'complete' | 'stopped' | 'error';
  error?: unknown;
  model?: string;
}

export interface AgentRunner {
  availability(): AgentAvailability;
  run(context: AgentRunContext): Promise<AgentRunOutcome>;
  changes(): PendingChangeView[];
  /** Drops what is stored about these turns (their tool-call transcripts): their answers are gone from the history. */
  forget?(turnIds: readonly string[]): void;
  /** Deletes the rest of what these turns stored (their checkpoints): their conversation was deleted. */
  discard?(turnIds: readonly string[]): void;
  /** Drops what is stored about every turn not in this list (called once the history is loaded). */
  keepOnly?(turnIds: readonly string[]): void;
  /** The request messages of these history messages (agent turns with their tool calls), to condense them. */
  requestHistory?(messages: readonly ChatMessage[], images: ImageBytes): MessageParam[];
}

/** A checkpoint id from a message id (letters, digits, _ and - only). */
export function turnIdOf(messageId: string): string {
  return `turn-${messageId.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 128);
}

/** The agent turns among these messages (their answers' turn ids). */
export function turnIdsOf(messages: readonly ChatMessage[]): string[] {
  return messages.flatMap((m) => (m.role === 'assistant' && m.agent ? [m.agent.turnId] : []));
}
