// The native-chat bundle (dist/features/lm.js): the @gateway participant's handler (with the agent), the model
// provider's response path and token count, and the gateway tools' work.
// src/lm/host/register.ts registers the participant, the provider and the tools at activation with thin stubs, and this
// bundle is loaded on the first request, token count or tool call.
export { createParticipantHandler } from './participant';
export { agentUnavailableReason } from './gatewayAgent';
export { countTokens, provideChatResponse } from './response';
export { ModelCalibrations } from '../tokens';
export { invokeImage, invokeListModels, prepareImage, type ToolDeps } from './tools/toolImpl';
