// Public entry of the gateway client (pure: no `vscode` import).
export { createGatewayClient } from './client';
export { normalizeBaseUrl, type NormalizedBaseUrl } from '../shared/baseUrl';
export { GatewayError, isGatewayError, type GatewayErrorInit } from './errors/errors';
export {
  adviseOnError,
  forbiddenCause,
  type Advice,
  type AdviceAction,
  type AdviceContext,
  type AdviceSurface,
} from './errors/advice';
export { detectMime } from './images/images';
export { parseRetryAfter } from './retry';
export { resolvePollUrl } from './images/tasks';
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
} from './completion/completionMode';
