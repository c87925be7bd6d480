// The one table of chat dialects (docs/architecture.md#adding-a-dialect): the wire protocols a chat model is called
// with. Everything that names a dialect — its type, the setting's values, the route in errors and logs, the URL Check
// Connection shows, the usage ledger, the model list's endpoint types — is derived from this table; the gateway's
// wire table (src/gateway/dialectCall.ts WIRES: request mapping, whole-reply mapping, event reader) is keyed by it,
// so the compiler asks for a new dialect's entry there. In shared/ because the settings parser and the usage ledger
// (pure, below the gateway) need the names too.

export const DIALECT_TABLE = {
  messages: {
    path: '/v1/messages',
    /** Its name in Check Connection and in the logs. */
    label: 'Messages',
    /** new-api's endpoint type (supported_endpoint_types) that names it: an exact type, or a prefix ending in '…'. */
    endpointType: 'anthropic',
  },
  'chat-completions': {
    path: '/v1/chat/completions',
    label: 'chat-completions',
    endpointType: 'openai',
  },
  responses: {
    path: '/v1/responses',
    label: 'Responses',
    // LiteLLM's /model/info mode `responses` arrives as `openai-response` (catalog/classify.ts); new-api writes more.
    endpointType: 'openai-response…',
  },
} as const satisfies Record<string, { path: `/${string}`; label: string; endpointType: string }>;

/** Which wire protocol ("dialect") a chat model is called with (src/gateway/dialect.ts decides). */
export type Dialect = keyof typeof DIALECT_TABLE;

/** Every dialect, in the order a refused route moves on (Messages → chat-completions → Responses). */
export const DIALECTS = Object.keys(DIALECT_TABLE) as Dialect[];

/** True for a dialect's exact name. */
export function isDialect(value: unknown): value is Dialect {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(DIALECT_TABLE, value);
}

/** 'POST /v1/…': the route of a dialect, as errors, logs and support records name it. */
export function dialectRoute(dialect: Dialect): string {
  return `POST ${DIALECT_TABLE[dialect].path}`;
}

/** True when a model list's endpoint type names this dialect (see DIALECT_TABLE's endpointType). */
export function endpointTypeNames(dialect: Dialect, type: string): boolean {
  const named: string = DIALECT_TABLE[dialect].endpointType;
  return named.endsWith('…') ? type.startsWith(named.slice(0, -1)) : type === named;
}

/** The dialects' names as a sentence's list: "messages", "chat-completions" or "responses". */
export function dialectNameList(quote = '"'): string {
  const names = DIALECTS.map((d) => `${quote}${d}${quote}`);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}
