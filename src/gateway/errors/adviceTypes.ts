// The shapes of the error advice (advice.ts): what a surface asks about and the title, detail and actions it gets.
import type { Localizer } from '../../shared/l10n';

export type AdviceAction =
  'replaceKey' | 'checkConnection' | 'openBaseUrlSetting' | 'retry' | 'refreshModels' | 'openConsoleAdvice' | 'showLog';
export type AdviceSurface = 'chat' | 'image' | 'models' | 'connection';

export interface AdviceContext {
  baseUrl?: string;
  surface: AdviceSurface;
  /** Translates the words; English when absent (tests, and surfaces not yet localized). */
  l10n?: Localizer;
  /**
   * GET /v1/models answered (with a list) at this base URL: a 404 on another route then means the gateway
   * does not offer that route, not a wrong base URL.
   */
  listWorks?: boolean;
}

export interface Advice {
  title: string;
  detail: string;
  actions: AdviceAction[];
  retryAfterMs?: number;
}
