// Every command id of the extension, in one place. package.json declares exactly these
// (test/unit/manifest.test.ts checks both directions).
export const Commands = {
  setApiKey: 'modelGateway.setApiKey',
  removeApiKey: 'modelGateway.removeApiKey',
  switchKey: 'modelGateway.switchKey',
  setSecretHeader: 'modelGateway.setSecretHeader',
  listSecretHeaders: 'modelGateway.listSecretHeaders',
  removeSecretHeader: 'modelGateway.removeSecretHeader',
  refreshModels: 'modelGateway.refreshModels',
  checkConnection: 'modelGateway.checkConnection',
  copySupportInfo: 'modelGateway.copySupportInfo',
  showLog: 'modelGateway.showLog',
  quickActions: 'modelGateway.quickActions',
  forgetLearnedDialects: 'modelGateway.forgetLearnedDialects',
  openSettings: 'modelGateway.openSettings',
  openChat: 'modelGateway.openChat',
  newChat: 'modelGateway.newChat',
  showConversations: 'modelGateway.showConversations',
  stopResponse: 'modelGateway.stopResponse',
  condenseConversation: 'modelGateway.condenseConversation',
  exportConversation: 'modelGateway.exportConversation',
  acceptHunk: 'modelGateway.acceptHunk',
  rejectHunk: 'modelGateway.rejectHunk',
  acceptProposedChange: 'modelGateway.acceptProposedChange',
  rejectProposedChange: 'modelGateway.rejectProposedChange',
  askAboutSelection: 'modelGateway.askAboutSelection',
  askAboutFile: 'modelGateway.askAboutFile',
  askAboutImage: 'modelGateway.askAboutImage',
  generateImage: 'modelGateway.generateImage',
  editImage: 'modelGateway.editImage',
  openImagePanel: 'modelGateway.openImagePanel',
  showImageTasks: 'modelGateway.showImageTasks',
  manageLanguageModels: 'modelGateway.manageLanguageModels',
  showUsage: 'modelGateway.showUsage',
  exportUsage: 'modelGateway.exportUsage',
  clearUsage: 'modelGateway.clearUsage',
  toggleCompletions: 'modelGateway.toggleCompletions',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

/**
 * Which feature serves each command: its register.ts exports one table of named handlers for exactly these
 * ids, and activate() registers the ids up front, loading the feature's code on the first call.
 */
export const FeatureCommands = {
  keys: [
    Commands.setApiKey,
    Commands.removeApiKey,
    Commands.switchKey,
    Commands.setSecretHeader,
    Commands.listSecretHeaders,
    Commands.removeSecretHeader,
  ],
  diagnostics: [
    Commands.checkConnection,
    Commands.copySupportInfo,
    Commands.showLog,
    Commands.refreshModels,
    Commands.openSettings,
    Commands.quickActions,
    Commands.forgetLearnedDialects,
  ],
  chat: [
    Commands.openChat,
    Commands.newChat,
    Commands.showConversations,
    Commands.stopResponse,
    Commands.condenseConversation,
    Commands.exportConversation,
    Commands.acceptHunk,
    Commands.rejectHunk,
    Commands.acceptProposedChange,
    Commands.rejectProposedChange,
    Commands.askAboutSelection,
    Commands.askAboutFile,
    Commands.askAboutImage,
  ],
  images: [Commands.generateImage, Commands.editImage, Commands.openImagePanel, Commands.showImageTasks],
  nativeChat: [Commands.manageLanguageModels],
  usage: [Commands.showUsage, Commands.exportUsage, Commands.clearUsage],
  completions: [Commands.toggleCompletions],
} as const satisfies Record<string, readonly CommandId[]>;

export type Feature = keyof typeof FeatureCommands;
export type FeatureCommandId<F extends Feature> = (typeof FeatureCommands)[F][number];

/**
 * A hidden command that exists only when the extension runs under the test harness: it reaches what tests
 * need (task lists, non-interactive key setup, quiet checks) without widening the user commands' signatures.
 * Not declared in package.json; not a Commands id.
 */
export const TEST_HOOKS_COMMAND = 'modelGateway.test.hooks';

/** Ids of views, panels and other contributions used from code. */
export const Views = {
  container: 'modelGateway',
  chat: 'modelGateway.chatView',
  imagePanel: 'modelGateway.imagePanel',
  usagePanel: 'modelGateway.usagePanel',
  chatParticipant: 'model-gateway.gateway',
  lmVendor: 'model-gateway',
} as const;

/** Environment variable that seeds the API key once, on a machine with none stored. */
export const API_KEY_ENV = 'MODEL_GATEWAY_API_KEY';
