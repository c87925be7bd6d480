// Local gateway emulator: a faithful stand-in for the gateway, for `npm start` and every test.
// Pure Node (http): no `vscode` import and no dependency on src/gateway.

export { startEmulator, DEFAULT_ADMIN_TOKEN } from './server';
export { defaultConfig, completeConfig, parseConfigText } from './config';
export { FAULT_HEADER } from './faults';
export type {
  Emulator,
  EmulatorConfig,
  Faults,
  GroupConfig,
  KeyConfig,
  Prices,
  Protocol,
  RequestLogEntry,
  RouteName,
  StartOptions,
  UpstreamModel,
} from './types';
