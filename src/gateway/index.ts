// Public entry of the gateway client (pure: no `vscode` import).
export { createGatewayClient } from './client';
export { normalizeBaseUrl, type NormalizedBaseUrl } from '../shared/baseUrl';
export { GatewayError, isGatewayError, type GatewayErrorInit } from './errors';
export {
  adviseOnError,
  forbiddenCause,
  type Advice,
  type AdviceAction,
  type AdviceContext,
  type AdviceSurface,
} from './advice';
export { detectMime } from './images';
export { parseRetryAfter } from './retry';
export { resolvePollUrl } from './tasks';
export * from './types';
export {
  chooseCompletionMode,
  isFimModelName,
  modeFromSetting,
  parseCompletionMode,
  COMPLETION_MODES,
  type CompletionMode,
  type CompletionModeDecision,
  type CompletionModeKnowledge,
} from './completionMode';
