// Typed configuration. `parseConfig(raw)` is pure and unit-tested; src/platform/config.ts feeds it
// from getConfiguration('modelGateway').
import { normalizeBaseUrl } from './baseUrl';
import { english, type Localizer } from './l10n';
import { clampSetting, SETTING_BOUNDS, type BoundedSetting, type ClampedSetting } from './settingBounds';
import { USER_ONLY_KEYS } from './settingsTable';
import { DIALECT_TABLE, dialectNameList, isDialect, type Dialect } from './dialects';

/** Model kinds: only chat and image models are offered by the chat and image flows; the others are listed under their kind. */
export const MODEL_KINDS = ['chat', 'image', 'embedding', 'audio', 'video', 'rerank', 'moderation'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];
/** A model's reasoning effort (src/gateway/dialects/reasoning.ts): 'off' sends none. */
export type ReasoningLevel = 'low' | 'medium' | 'high' | 'off';

export interface Config {
  /** Normalised site root, or '' when not set or invalid (see baseUrlProblem). */
  baseUrl: string;
  /** The base URL exactly as the user typed it (trimmed). */
  baseUrlRaw?: string;
  /** What normalisation changed, in words, when it changed anything. */
  baseUrlNotice?: string;
  /** Why the configured base URL cannot be used, when it cannot. */
  baseUrlProblem?: string;
  /** A base URL from the workspace's settings that waits for the user's allowance (src/platform/workspaceBaseUrl.ts). */
  workspaceBaseUrlToAllow?: string;
  /** A system prompt from the workspace's settings, not used until the user allows it (src/platform/workspaceSettings.ts). */
  workspaceSystemPromptToAllow?: string;
  /** The file that set a value waiting for allowance (`.vscode/settings.json`, or the `.code-workspace` file). */
  workspaceSettingsFile?: string;
  versionHeader: string;
  version: string;
  /** agentDefaultModel: the model of new Agent-mode conversations (modelGateway.agent.defaultModel); empty: defaultModel. */
  chat: { defaultModel: string; agentDefaultModel: string; maxTokens: number; systemPrompt: string };
  images: {
    defaultModel: string;
    outputFolder: string;
    defaultSize: string;
    defaultQuality: string;
    mode: 'async' | 'sync';
    editEncoding: 'json' | 'multipart';
    confirmCostlyRequests: boolean;
    /** How long an async task is polled from its submission before its outcome is called unknown. */
    taskTimeoutMs: number;
  };
  requestTimeoutMs: number;
  modelCacheMs: number;
  modelKindOverrides: Record<string, ModelKind>;
  /** Model ids the user declares (modelGateway.models.declared): the list when the gateway cannot list, merged otherwise. */
  declaredModels: string[];
  /** The user's per-model dialect overrides (modelGateway.models.dialects, user settings only). */
  modelDialects: Record<string, Dialect>;
  /** The user's reasoning effort per model (modelGateway.models.reasoning, user settings only). */
  modelReasoning: Record<string, ReasoningLevel>;
  /** modelGateway.models.vision: model id → reads images (where the model list does not say). */
  modelVision: Record<string, boolean>;
  nativeChatEnabled: boolean;
  /** The user's request headers (modelGateway.requestHeaders, user settings only): sent on every route. */
  requestHeaders: Record<string, string>;
  /** Settings that were invalid and replaced by their default, in words (shown by Check Connection). */
  problems?: string[];
  /** Numbers outside their bounds, clamped (the host says each once). */
  clamped?: ClampedSetting[];
}

/** Every `modelGateway.*` key parseConfig reads (relative to the section). */
export const CONFIG_KEYS = [
  'baseUrl',
  'versionHeader',
  'version',
  'chat.defaultModel',
  'chat.maxTokens',
  'chat.systemPrompt',
  'agent.defaultModel',
  'images.defaultModel',
  'images.outputFolder',
  'images.defaultSize',
  'images.defaultQuality',
  'images.mode',
  'images.editEncoding',
  'images.confirmCostlyRequests',
  'images.taskTimeoutMinutes',
  'requestTimeoutSeconds',
  'models.cacheMinutes',
  'models.kindOverrides',
  'models.declared',
  'models.dialects',
  'models.reasoning',
  'models.vision',
  'nativeChat.enabled',
  'requestHeaders',
] as const;

/**
 * Keys read from the user's own settings only (inspect().globalValue), never from a workspace or folder: a
 * repository must not choose what a request costs or what is sent to the gateway with the key. The trust of every
 * setting is declared once, in settingsTable.ts.
 */
export const USER_ONLY_CONFIG_KEYS: ReadonlySet<string> = USER_ONLY_KEYS;

export const CONFIG_DEFAULTS = {
  versionHeader: 'anthropic-version',
  version: '2023-06-01',
  maxTokens: 4096,
  outputFolder: 'images',
  defaultSize: '1024x1024',
  defaultQuality: 'auto',
  requestTimeoutSeconds: 120,
  cacheMinutes: 60,
  /** More declared ids than this are ignored (a list, not a data set: it feeds pickers). */
  maxDeclaredModels: 1000,
  maxModelIdLength: 256,
} as const;

const QUALITIES = ['auto', 'low', 'medium', 'high', 'standard', 'hd'];
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const FORBIDDEN_HEADERS = new Set(['authorization', 'x-api-key', 'content-type', 'host', 'content-length']);

/** Reads a raw settings record (keys of CONFIG_KEYS) into a Config with defaults; never throws. */
/** `l10n` translates the base-URL notice and problem (the host passes vscode.l10n). */
export function parseConfig(raw: Record<string, unknown>, l10n: Localizer = english): Config {
  const problems: string[] = [];
  const clamped: ClampedSetting[] = [];
  const reader = new Reader(raw, problems, clamped);
  const base = describeBaseUrl(reader.string('baseUrl', ''), l10n);
  return {
    baseUrl: base.baseUrl,
    baseUrlRaw: base.raw,
    ...(base.notice ? { baseUrlNotice: base.notice } : {}),
    ...(base.problem ? { baseUrlProblem: base.problem } : {}),
    versionHeader: reader.matching(
      'versionHeader',
      CONFIG_DEFAULTS.versionHeader,
      isUsableHeaderName,
      'a plain HTTP header name other than an auth header',
    ),
    version: reader.matching(
      'version',
      CONFIG_DEFAULTS.version,
      (v) => /^\d{4}-\d{2}-\d{2}$/.test(v),
      'a date YYYY-MM-DD',
    ),
    chat: {
      defaultModel: reader.string('chat.defaultModel', ''),
      agentDefaultModel: reader.string('agent.defaultModel', ''),
      maxTokens: reader.integer('chat.maxTokens', CONFIG_DEFAULTS.maxTokens),
      systemPrompt: reader.string('chat.systemPrompt', '', false),
    },
    images: {
      defaultModel: reader.string('images.defaultModel', ''),
      outputFolder: reader.matching(
        'images.outputFolder',
        CONFIG_DEFAULTS.outputFolder,
        isInsideFolder,
        'a folder relative to the workspace, without ".."',
      ),
      defaultSize: reader.matching(
        'images.defaultSize',
        CONFIG_DEFAULTS.defaultSize,
        (v) => /^\d{2,5}x\d{2,5}$/.test(v),
        'WIDTHxHEIGHT',
      ),
      defaultQuality: reader.oneOf('images.defaultQuality', CONFIG_DEFAULTS.defaultQuality, QUALITIES),
      mode: reader.oneOf('images.mode', 'async', ['async', 'sync'] as const),
      editEncoding: reader.oneOf('images.editEncoding', 'json', ['json', 'multipart'] as const),
      confirmCostlyRequests: reader.boolean('images.confirmCostlyRequests', true),
      // docs/gateway-protocol.md#async-image-tasks: tasks get about 30 minutes to run (and 24 h to be read).
      taskTimeoutMs: reader.number('images.taskTimeoutMinutes', 30) * 60_000,
    },
    requestTimeoutMs: reader.number('requestTimeoutSeconds', CONFIG_DEFAULTS.requestTimeoutSeconds) * 1000,
    modelCacheMs: reader.number('models.cacheMinutes', CONFIG_DEFAULTS.cacheMinutes) * 60_000,
    modelKindOverrides: reader.kindOverrides('models.kindOverrides'),
    declaredModels: reader.modelIds('models.declared'),
    modelDialects: reader.dialects('models.dialects'),
    modelReasoning: reader.reasoning('models.reasoning'),
    modelVision: reader.booleanMap('models.vision'),
    nativeChatEnabled: reader.boolean('nativeChat.enabled', true),
    requestHeaders: reader.headers('requestHeaders'),
    problems,
    ...(clamped.length > 0 ? { clamped } : {}),
  };
}

/** The base URL as typed, normalised by the gateway core, with what changed or why it is unusable. */
export function describeBaseUrl(
  typed: string,
  l10n: Localizer = english,
): { raw: string; baseUrl: string; notice?: string; problem?: string } {
  const raw = typed.trim();
  if (raw === '')
    return {
      raw,
      baseUrl: '',
      problem: l10n.t('No base URL is set. Enter the site root of your gateway in the setting modelGateway.baseUrl.'),
    };
  const result = normalizeBaseUrl(raw, l10n);
  if (result.problem) return { raw, baseUrl: '', problem: result.problem };
  return { raw, baseUrl: result.baseUrl, ...(result.changed && result.notice ? { notice: result.notice } : {}) };
}

/** The exact URLs the extension calls for a normalised base URL (shown to the user). */
export function endpointUrls(baseUrl: string): {
  messages: string;
  models: string;
  images: string;
  imagesAsync: string;
  tasks: string;
} {
  return {
    messages: baseUrl + DIALECT_TABLE.messages.path,
    models: `${baseUrl}/v1/models`,
    images: `${baseUrl}/v1/images/generations`,
    imagesAsync: `${baseUrl}/v1/images/generations/async`,
    tasks: `${baseUrl}/v1/images/tasks/<id>`,
  };
}

/**
 * The names of the request headers a client sends: the setting's, then the key's secret ones (marked; a secret
 * header replaces a setting of the same name). Names only, for logs, Check Connection and Copy Support Info.
 */
export function requestHeaderNames(headers: Record<string, string>, secretNames: readonly string[]): string[] {
  const secret = new Set(secretNames.map((n) => n.toLowerCase()));
  return [
    ...Object.keys(headers).filter((n) => !secret.has(n.toLowerCase())),
    ...secretNames.map((n) => `${n} (secret)`),
  ];
}

function isUsableHeaderName(value: string): boolean {
  return HEADER_NAME.test(value) && !FORBIDDEN_HEADERS.has(value.toLowerCase());
}

function isInsideFolder(value: string): boolean {
  if (value.startsWith('/') || value.startsWith('\\') || /^[A-Za-z]:/.test(value)) return false;
  return !value.split(/[\\/]/).includes('..');
}

/** Typed access to the raw record; an invalid value becomes the default and a line in `problems`. */
class Reader {
  constructor(
    private readonly raw: Record<string, unknown>,
    private readonly problems: string[],
    private readonly clamped: ClampedSetting[],
  ) {}

  private invalid<T>(key: string, fallback: T, expected: string): T {
    this.problems.push(`modelGateway.${key}: expected ${expected}; using ${JSON.stringify(fallback)}.`);
    return fallback;
  }

  string(key: string, fallback: string, trim = true): string {
    const value = this.raw[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string') return this.invalid(key, fallback, 'a string');
    return trim ? value.trim() : value;
  }

  matching(key: string, fallback: string, ok: (value: string) => boolean, expected: string): string {
    const value = this.string(key, fallback);
    if (value === '') return fallback;
    return ok(value) ? value : this.invalid(key, fallback, expected);
  }

  oneOf<T extends string>(key: string, fallback: T, allowed: readonly T[]): T {
    const value = this.string(key, fallback);
    return (allowed as readonly string[]).includes(value)
      ? (value as T)
      : this.invalid(key, fallback, `one of ${allowed.join(', ')}`);
  }

  /** A number within the setting's bounds: one outside them is clamped (and said), one that is no number is the default. */
  number(key: BoundedSetting, fallback: number, integer = false): number {
    const value = this.raw[key];
    if (value === undefined || value === null) return fallback;
    const { min, max } = SETTING_BOUNDS[key];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return this.invalid(key, fallback, `a number from ${min} to ${max}`);
    }
    const { used, clamped } = clampSetting(key, value, integer);
    if (clamped) {
      this.clamped.push(clamped);
      this.problems.push(`modelGateway.${key}: ${value} is outside ${min} to ${max}; using ${used}.`);
    }
    return used;
  }

  integer(key: BoundedSetting, fallback: number): number {
    return this.number(key, fallback, true);
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.raw[key];
    if (value === undefined || value === null) return fallback;
    return typeof value === 'boolean' ? value : this.invalid(key, fallback, 'true or false');
  }

  /** An array of model ids: trimmed, non-empty, without control characters, de-duplicated, capped. */
  modelIds(key: string): string[] {
    const value = this.raw[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return this.invalid(key, [], 'an array of model ids');
    const ids: string[] = [];
    const seen = new Set<string>();
    let skipped = 0;
    for (const entry of value as unknown[]) {
      const id = typeof entry === 'string' ? entry.trim() : '';
      if (!id || id.length > CONFIG_DEFAULTS.maxModelIdLength || /[\u0000-\u001f\u007f]/.test(id)) {
        skipped++;
        continue;
      }
      if (seen.has(id)) continue;
      if (ids.length >= CONFIG_DEFAULTS.maxDeclaredModels) {
        this.problems.push(`modelGateway.${key}: only the first ${CONFIG_DEFAULTS.maxDeclaredModels} ids are used.`);
        break;
      }
      seen.add(id);
      ids.push(id);
    }
    if (skipped)
      this.problems.push(
        `modelGateway.${key}: ${skipped} entr${skipped === 1 ? 'y is' : 'ies are'} not a model id (a non-empty string up to ${CONFIG_DEFAULTS.maxModelIdLength} characters); ignored.`,
      );
    return ids;
  }

  /**
   * An object of name → value (a model id's dialect, a header's value…): an entry `fault` finds wrong is dropped and
   * said (`modelGateway.<key>: <fault>; ignored.`), the others are kept; a value that is no object is the empty map.
   */
  private map<T>(
    key: string,
    expected: string,
    fault: (name: string, value: unknown) => string | undefined,
  ): Record<string, T> {
    const value = this.raw[key];
    const result: Record<string, T> = {};
    if (value === undefined || value === null) return result;
    if (typeof value !== 'object' || Array.isArray(value)) return this.invalid(key, result, `an object of ${expected}`);
    for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
      const why = fault(name, entry);
      if (why === undefined) result[name] = entry as T;
      else this.problems.push(`modelGateway.${key}: ${why}; ignored.`);
    }
    return result;
  }

  dialects(key: string): Record<string, Dialect> {
    return this.map(key, `model id → ${dialectNameList()}`, (id, dialect) =>
      isDialect(dialect) ? undefined : `"${id}" must map to ${dialectNameList()}`,
    );
  }

  reasoning(key: string): Record<string, ReasoningLevel> {
    return this.map(key, 'model id → "low" | "medium" | "high" | "off"', (id, level) =>
      level === 'low' || level === 'medium' || level === 'high' || level === 'off'
        ? undefined
        : `"${id}" must map to "low", "medium", "high" or "off"`,
    );
  }

  /**
   * Header name → value. A name that is no RFC 7230 token or a value with a line break or control character is
   * dropped (and said); names the client owns (auth, version) are refused by the client itself, by name.
   */
  headers(key: string): Record<string, string> {
    return this.map(key, 'header name → value', (name, text) => {
      if (!HEADER_NAME.test(name)) return `"${name}" is not a valid header name`;
      if (typeof text !== 'string' || /[\u0000-\u0008\u000a-\u001f\u007f]/.test(text))
        return `the value of "${name}" must be text on one line`;
      return undefined;
    });
  }

  booleanMap(key: string): Record<string, boolean> {
    return this.map(key, 'model id → true | false', (id, v) =>
      typeof v === 'boolean' ? undefined : `"${id}" must map to true or false`,
    );
  }

  kindOverrides(key: string): Record<string, ModelKind> {
    return this.map(key, `model id → ${MODEL_KINDS.map((k) => `"${k}"`).join(' | ')}`, (id, kind) =>
      (MODEL_KINDS as readonly unknown[]).includes(kind)
        ? undefined
        : `"${id}" must map to one of ${MODEL_KINDS.join(', ')}`,
    );
  }
}
