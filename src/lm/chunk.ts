// The native-chat bundle (dist/features/lm.js): the @gateway participant's handler (with the agent) and the
// gateway tools' work. src/lm/register.ts registers the participant and the tools at activation with thin
// stubs, and this bundle is loaded on the first request or tool call.
export { createParticipantHandler } from './participant';
export { agentUnavailableReason } from './gatewayAgent';
export { invokeImage, invokeListModels, prepareImage, type ToolDeps } from './tools/toolImpl';
