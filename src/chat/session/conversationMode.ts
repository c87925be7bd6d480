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

/** What a conversation's model becomes when the active key's list does not name it (listedModelChange). */
export interface ModelChange {
  /** The model the conversation had, which the list does not name. */
  from: string;
  /** What a first start picks with this list: the default setting (Agent's, then Ask's) when listed, else the first. */
  to: string;
  /** The conversation's own model after the change: `to`, or undefined when the defaults give `to` anyway. */
  own: string | undefined;
}

/**
 * A conversation whose model the active key's list (`listed`: every id it names, of any kind) does not name falls
 * back to what a first start picks among its chat `models` (modeSettings without the conversation's own model), with
 * a default setting only when the list names it: the question then goes out on a model the key lists, not into the
 * gateway's 403. Undefined when the model is listed or the key lists no chat model.
 */
export function listedModelChange(
  conversation: Conversation,
  defaults: ConversationSettings & { agentModel?: string },
  models: readonly { id: string }[],
  listedIds: ReadonlySet<string>,
): ModelChange | undefined {
  const from = modeSettings(conversation, defaults, models).model;
  const listed = (id: string | undefined): string | undefined => (id && listedIds.has(id) ? id : undefined);
  if (!from || models.length === 0 || listed(from)) return undefined;
  const { model: _own, ...overrides } = conversation.overrides;
  const fresh = { ...conversation, overrides };
  const listedDefaults = { ...defaults, model: listed(defaults.model) ?? '', agentModel: listed(defaults.agentModel) };
  const to = modeSettings(fresh, listedDefaults, models).model;
  return { from, to, own: modeSettings(fresh, defaults, models).model === to ? undefined : to };
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
