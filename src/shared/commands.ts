// Every command id of the extension, in one place. package.json declares exactly these
// (test/unit/manifest.test.ts checks both directions).
export const Commands = {
  setApiKey: 'modelGateway.setApiKey',
  removeApiKey: 'modelGateway.removeApiKey',
  switchKey: 'modelGateway.switchKey',
  refreshModels: 'modelGateway.refreshModels',
  checkConnection: 'modelGateway.checkConnection',
  copySupportInfo: 'modelGateway.copySupportInfo',
  showLog: 'modelGateway.showLog',
  quickActions: 'modelGateway.quickActions',
  openSettings: 'modelGateway.openSettings',
  openChat: 'modelGateway.openChat',
  newChat: 'modelGateway.newChat',
  showConversations: 'modelGateway.showConversations',
  stopResponse: 'modelGateway.stopResponse',
  askAboutSelection: 'modelGateway.askAboutSelection',
  askAboutFile: 'modelGateway.askAboutFile',
  generateImage: 'modelGateway.generateImage',
  editImage: 'modelGateway.editImage',
  openImagePanel: 'modelGateway.openImagePanel',
  showImageTasks: 'modelGateway.showImageTasks',
  manageLanguageModels: 'modelGateway.manageLanguageModels',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

/** Ids of views, panels and other contributions used from code. */
export const Views = {
  container: 'modelGateway',
  chat: 'modelGateway.chatView',
  imagePanel: 'modelGateway.imagePanel',
  chatParticipant: 'model-gateway.gateway',
  lmVendor: 'model-gateway',
} as const;

/** Environment variable that seeds the API key once, on a machine with none stored. */
export const API_KEY_ENV = 'MODEL_GATEWAY_API_KEY';
