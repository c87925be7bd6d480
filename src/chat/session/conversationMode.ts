// What a conversation's mode decides (pure): Agent and Plan run through the agent's tools, so they share its model
// and its turn record; Ask answers without tools.
import type { AgentTurnInfo, ChatMode, ConversationSettings } from '../../shared/protocol/chat';
import { turnIdOf } from '../agent/agentPort';
import { effectiveSettings, type Conversation } from './conversation';

/** Agent mode and Plan mode (the agent's read-only mode) both run through the agent's tools. */
export function usesAgent(mode: ChatMode | undefined): boolean {
  return mode === 'agent' || mode === 'plan';
}

/**
 * The settings a conversation's next request is sent with: its own overrides over the defaults, where an agent
 * conversation takes the agent's model (`agentModel`) and a conversation with no model at all the first chat model.
 */
export function modeSettings(
  conversation: Conversation,
  defaults: ConversationSettings & { agentModel?: string },
  models: readonly { id: string }[],
): ConversationSettings {
  const { agentModel, ...rest } = defaults;
  // Plan is the agent's read-only mode: it needs the same tool-using model as Agent.
  if (usesAgent(conversation.mode) && agentModel) rest.model = agentModel;
  const settings = effectiveSettings(conversation, rest);
  if (!settings.model && models.length > 0) settings.model = models[0].id;
  return settings;
}

/** The empty turn record a new agent answer starts with; `continued`: the user's Continue after a budget stop. */
export function newAgentTurn(mode: ChatMode | undefined, messageId: string, continued: boolean): AgentTurnInfo {
  return {
    turnId: turnIdOf(messageId),
    tools: [],
    steps: [],
    ...(mode === 'plan' ? { mode: 'plan' as const } : {}),
    ...(continued ? { continued: true } : {}),
  };
}
