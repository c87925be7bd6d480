// Typed configuration. `parseConfig(raw)` is pure and unit-tested; src/platform/config.ts feeds it
// from getConfiguration('modelGateway').

export type ModelKind = 'chat' | 'image';

export interface Config {
  /** Normalised site root, or '' when not set or invalid (see baseUrlProblem). */
  baseUrl: string;
  /** What normalisation changed, in words, when it changed anything. */
  baseUrlNotice?: string;
  /** Why the configured base URL cannot be used, when it cannot. */
  baseUrlProblem?: string;
  versionHeader: string;
  version: string;
  chat: { defaultModel: string; maxTokens: number; systemPrompt: string };
  images: {
    defaultModel: string;
    outputFolder: string;
    defaultSize: string;
    defaultQuality: string;
    mode: 'async' | 'sync';
    editEncoding: 'json' | 'multipart';
    confirmCostlyRequests: boolean;
  };
  requestTimeoutMs: number;
  modelCacheMs: number;
  modelKindOverrides: Record<string, ModelKind>;
  nativeChatEnabled: boolean;
}
