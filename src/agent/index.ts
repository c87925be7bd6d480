// Public entry of the agent core (pure: no `vscode` import). Front ends supply tools, approvals and rendering.
export {
  runAgentTurn,
  DEFAULT_MAX_STEPS,
  DEFAULT_CONTEXT_WINDOW,
  type AgentTurnOptions,
  type AgentTurnResult,
} from './loop';
export {
  APPROVAL_RULES,
  PROTECTED_PATTERNS,
  decide,
  secretPattern,
  type ApprovalRule,
  type PolicyFacts,
  type PolicySettings,
} from './policy';
export {
  allowListMatch,
  codeRunningOption,
  commandWords,
  environmentPrefix,
  pathLikeArguments,
  unsafeCommandSyntax,
  CODE_RUNNING_LONG_OPTIONS,
  SHELL_METACHARACTERS,
} from './commands';
export { changedPackageKeys, CODE_RUNNING_PACKAGE_KEYS } from './packageScripts';
export { DEFAULT_SECRET_PATTERNS, expandBraces, IGNORE_FILE_NAME, matchIgnored, parseIgnoreFile } from './ignore';
export { isPathInside, containingFolder, normalizeAbsolute, onRealFolder, relativeTo } from './paths';
export { CachingMemory, isCacheControlRejection } from './caching';
export { estimateTokens, estimateMessages, fitToWindow, omittedMarker, CHARS_PER_TOKEN } from './fit';
export { contextWindowOf } from './contextWindow';
export { addTokens, totalTokens } from '../shared/tokens';
export { ToolCatalog, MORE_TOOLS_NAME, DIRECT_TOOLS_TOKENS, definitionTokens } from './toolCatalog';
export { allowedInMode, modeRefusal, toolsForMode, PLAN_MODE_CLASSES, type AgentMode } from './modes';
export * from './types';
export { byPath, pageHeader, pageOf, type Page } from './paging';
export {
  buildInstructions,
  instructionCandidates,
  instructionFileRefusal,
  instructionSettingsFrom,
  INSTRUCTIONS_FILE_CAP,
  INSTRUCTIONS_TOTAL_CAP,
  NEAREST_INSTRUCTION_FILE,
  ROOT_INSTRUCTION_FILES,
  type InstructionFile,
  type InstructionSettings,
  type InstructionSource,
  type ProjectInstructions,
} from './instructions';
export {
  createSubagentTool,
  roleRefusal,
  scopedToolUseId,
  subagentOfToolUseId,
  DEFAULT_MAX_PARALLEL_SUBAGENTS,
  MAX_PARALLEL_SUBAGENTS,
  SUBAGENT_PERMISSIONS,
  SUBAGENT_RESULT_CHARS,
  SUBAGENT_TASK_CHARS,
  SUBAGENT_TOOL_NAME,
  SUBAGENTS_PER_TURN,
  type SubagentParent,
  type SubagentPermission,
  type SubagentReport,
  type SubagentRole,
  type SubagentSettings,
  type SubagentToolOptions,
} from './subagents';
export {
  AGENT_DEFINITION_CAP,
  AGENT_DEFINITION_DIRS,
  AGENT_DEFINITIONS_MAX,
  applyDefinition,
  definitionInstructions,
  isAgentDefinitionPath,
  parseAgentDefinition,
  type AgentDefinition,
  type AppliedDefinition,
} from './agentDefinitions';
