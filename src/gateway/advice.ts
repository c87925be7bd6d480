// The ONE place where errors become words: the spec's error table (401/403/404/429/5xx/timeout)
// turned into a title, a detail and the actions the UI offers. Texts of a GatewayError are already
// redacted by the client; nothing here adds secrets.
import type { GatewayError } from './errors';
import { isGatewayError } from './errors';

export type AdviceAction = 'replaceKey' | 'checkConnection' | 'openBaseUrlSetting' | 'retry' | 'refreshModels' | 'openConsoleAdvice' | 'showLog';
export type AdviceSurface = 'chat' | 'image' | 'models' | 'connection';

export interface AdviceContext {
  baseUrl?: string;
  surface: AdviceSurface;
}

export interface Advice {
  title: string;
  detail: string;
  actions: AdviceAction[];
  retryAfterMs?: number;
}

type Adviser = (e: GatewayError, c: AdviceContext) => Advice;

const SUPPORT_NOTE = 'Support only needs the timestamp, route, model, HTTP status and request ID (Copy Support Info).';

/** Turns any error into words and actions following the spec's error table. */
export function adviseOnError(error: unknown, context: AdviceContext): Advice {
  if (!isGatewayError(error)) {
    const text = error instanceof Error ? error.message : String(error);
    return { title: 'Something went wrong.', detail: withoutSecrets(text).slice(0, 300), actions: ['showLog'] };
  }
  // A cut stream and an unusable tool input are explained by what happened, whatever the socket or
  // parser called it: the gateway was reached and answered (HTTP 200).
  const adviser = error.kind === 'aborted' ? ADVISERS.aborted
    : error.cut ? adviseCut
      : error.toolInputProblems?.length && error.kind === 'protocol' ? adviseToolInput
        : ADVISERS[error.kind] ?? adviseProtocol;
  const advice = adviser(error, context);
  if (error.requestId && error.kind !== 'aborted') advice.detail = `${advice.detail} Request ID: ${error.requestId}.`.trim();
  return advice;
}

const ADVISERS: Record<GatewayError['kind'], Adviser> = {
  auth: adviseAuth,
  forbidden: adviseForbidden,
  not_found: adviseNotFound,
  rate_limited: adviseRateLimited,
  bad_request: adviseBadRequest,
  server: adviseServer,
  timeout: adviseTimeout,
  network: adviseNetwork,
  protocol: adviseProtocol,
  aborted: () => ({ title: 'Cancelled.', detail: '', actions: [] }),
};

function said(e: GatewayError): string {
  if (!e.serverMessage) return '';
  // errorBody labels proxy/CDN pages "HTML error page[ from <server>]: <text>": that is not the gateway speaking.
  const page = /^HTML error page( from [^:]+)?: ([\s\S]*)$/.exec(e.serverMessage);
  if (page) return ` The answer was an HTML error page${page[1] ?? ''} ("${page[2].replace(/[.\s]+$/, '')}"): a proxy or CDN in front of the gateway answered, not the gateway's API.`;
  return ` The gateway said: "${e.serverMessage.replace(/[.\s]+$/, '')}".`;
}

const UPSTREAM_NOTE = 'The gateway accepted your key; the error came from the provider behind the gateway and was only passed on.';

function adviseAuth(e: GatewayError): Advice {
  if (e.upstream) {
    return {
      title: "The gateway's upstream provider rejected the gateway's own credentials (401).",
      detail: `${UPSTREAM_NOTE} Replacing your key will not help: the gateway admin has to fix the provider key (channel) behind this model, or pick another model.${said(e)}`,
      actions: ['refreshModels', 'retry', 'showLog'],
    };
  }
  return {
    title: 'The gateway rejected the API key (401).',
    detail: `The key is incomplete, revoked or wrong${e.serverCode ? ` (${e.serverCode})` : ''}. Create a dedicated key for this device in your gateway console and replace it here. Never paste the key into a support request: ${SUPPORT_NOTE}`,
    actions: ['replaceKey', 'checkConnection'],
  };
}

type ForbiddenCause = 'balance' | 'route' | 'model' | 'group' | 'expired' | undefined;

/** Which of the four 403 causes the server's code or message points at, if any. */
export function forbiddenCause(e: Pick<GatewayError, 'status' | 'serverCode' | 'serverMessage'>): ForbiddenCause {
  const text = `${e.serverCode ?? ''} ${e.serverMessage ?? ''}`.toLowerCase();
  if (e.status === 402 || /balance|quota|billing|credit|insufficient|payment|余额/.test(text)) return 'balance';
  if (/expired/.test(text)) return 'expired';
  if (/not enabled|route|endpoint|image generation|permission to (use|call) (this|the) (api|route)/.test(text)) return 'route';
  if (/model/.test(text)) return 'model';
  if (/group/.test(text)) return 'group';
  return undefined;
}

function adviseForbidden(e: GatewayError, c: AdviceContext): Advice {
  const model = e.model ? ` "${e.model}"` : '';
  const causes: Record<Exclude<ForbiddenCause, undefined>, Advice> = {
    balance: { title: 'Not enough balance for this call (403).', detail: 'Your gateway balance does not allow this call. Top up or check your plan in the gateway console, then retry.', actions: ['openConsoleAdvice', 'retry'] },
    route: { title: c.surface === 'image' ? 'Image generation is not enabled for your key (403).' : 'Your key may not call this route (403).', detail: `Your key group has no permission for ${e.route}. Ask the gateway admin to enable it for your group, or use a key of a group that has it.`, actions: ['openConsoleAdvice', 'checkConnection'] },
    model: { title: `The model${model} is not available to your key (403).`, detail: 'Only models returned by GET /v1/models for this key are callable. Refresh the model list and pick one of them.', actions: ['refreshModels', 'openConsoleAdvice'] },
    group: { title: 'Your key group does not allow this call (403).', detail: 'The key group may be disabled or may not include this model or route. Check the key group in your gateway console.', actions: ['openConsoleAdvice', 'checkConnection'] },
    expired: { title: 'The API key has expired (403).', detail: 'Create a new key in your gateway console and replace it here.', actions: ['replaceKey', 'openConsoleAdvice'] },
  };
  if (e.upstream) {
    return {
      title: "The gateway's upstream provider refused this call (403).",
      detail: `${UPSTREAM_NOTE} It is not about your key, group or balance: tell the gateway admin, or pick another model.${said(e)}`,
      actions: ['refreshModels', 'retry', 'showLog'],
    };
  }
  const cause = forbiddenCause(e);
  const advice = cause ? causes[cause] : {
    title: 'The gateway refused this call (403).',
    detail: `Check the four things that govern access: the key group, whether the model${model} is visible to the key, your balance, and the route permission (${e.route}).`,
    actions: ['openConsoleAdvice', 'refreshModels', 'checkConnection'] as Advice['actions'],
  };
  return { ...advice, detail: advice.detail + said(e) };
}

function calledUrl(e: GatewayError, c: AdviceContext): string {
  const path = e.route.split(' ')[1] ?? '';
  return c.baseUrl ? `${c.baseUrl.replace(/\/+$/, '')}${path}` : path;
}

function adviseNotFound(e: GatewayError, c: AdviceContext): Advice {
  const url = calledUrl(e, c);
  if (/model/i.test(`${e.serverCode ?? ''} ${e.serverMessage ?? ''}`) && e.model) {
    return { title: `The model "${e.model}" was not found (404).`, detail: `Refresh the model list and choose a model returned for this key.${said(e)}`, actions: ['refreshModels', 'checkConnection'] };
  }
  const imageHint = c.surface === 'image' && /async|tasks/.test(e.route) ? ' If your gateway has no async image routes, set modelGateway.images.mode to "sync".' : '';
  return {
    title: `Not found (404): ${url}`,
    detail: `A 404 almost always means a wrong base URL. Use the site root of your gateway (for example https://gw.example.com): no /v1, and no full endpoint such as /v1/messages; /v1 appended twice or a full endpoint as the base URL gives 404.${imageHint}`,
    actions: ['openBaseUrlSetting', 'checkConnection'],
  };
}

function seconds(ms: number): string {
  return ms >= 90_000 ? `${Math.ceil(ms / 60_000)} min` : `${Math.max(1, Math.ceil(ms / 1000))} s`;
}

function adviseRateLimited(e: GatewayError): Advice {
  const wait = e.retryAfterMs;
  return {
    title: 'Too many requests (429).',
    detail: (wait !== undefined
      ? `The gateway asked to wait ${seconds(wait)} (Retry-After). Requests are queued and sent one at a time; retry after the wait, and do not resend a batch at once.`
      : 'Requests are queued and sent one at a time. Wait a moment before retrying, and do not resend a batch at once.'
    ) + (e.upstream ? ` The limit is the upstream provider's, shared by everyone on this gateway, not your key's.${said(e)}` : ''),
    actions: ['retry'],
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  };
}

function adviseServer(e: GatewayError, c: AdviceContext): Advice {
  const midStream = e.status === undefined || e.status < 500;
  const title = midStream ? `The gateway reported ${e.serverCode === 'overloaded_error' ? 'that the model is overloaded' : 'an error'} during the answer.` : `The gateway had a server error (HTTP ${e.status}).`;
  const safe = e.route.startsWith('GET ');
  const billable = c.surface === 'image' ? 'Image calls are billable' : 'The call may be billable';
  const kept = e.partial ? ' The partial answer is kept and marked as cut off.' : '';
  const detail = safe
    ? 'It was retried a few times already. Try again later.'
    : `${billable}, so it was not replayed automatically${e.outcomeUnknown ? ' (it may have been processed and charged: check your console usage first)' : ''}. Retry when you choose.`;
  const upstream = e.upstream ? ' The error came from the provider behind the gateway.' : '';
  return { title, detail: detail + kept + upstream + said(e), actions: ['retry', 'showLog'] };
}

function count(n: number, unit: string): string {
  return `${n.toLocaleString('en-US')} ${unit}${n === 1 ? '' : 's'}`;
}

/** A 200 stream cut mid-way: the gateway was reached; how far the answer got; billing unknown. */
function adviseCut(e: GatewayError, c: AdviceContext): Advice {
  const cut = e.cut ?? { characters: 0, how: 'dropped' as const };
  const how = cut.how === 'stalled' ? `sent nothing for ${e.message.match(/within (\d+ s)/)?.[1] ?? 'too long'} and the stream was closed`
    : cut.how === 'ended' ? 'closed the stream before the end of the answer'
      : 'connection broke during the answer';
  const reached = `The gateway${c.baseUrl ? ` at ${c.baseUrl}` : ''} was reached and answered (HTTP ${e.status ?? 200}), then the ${cut.how === 'dropped' ? how : `gateway ${how}`}.`;
  const size = cut.outputTokens !== undefined ? `${count(cut.outputTokens, 'output token')} (${count(cut.characters, 'character')})` : count(cut.characters, 'character');
  const got = cut.characters > 0 || cut.outputTokens !== undefined ? `The answer was cut after ${size}; the partial answer is kept and marked as cut off.` : 'No text had arrived yet.';
  return {
    title: cut.characters > 0 ? `The answer was cut off after ${size}.` : 'The answer was cut off before any text arrived.',
    detail: `${reached} ${got} Whether and how much this call is billed is unknown (check your console usage). Retrying is your choice: it sends the request again and may be billed again.`,
    actions: ['retry', 'showLog'],
  };
}

/** The stream finished, but a tool call's input is not a JSON object (malformed, or cut by max_tokens). */
function adviseToolInput(e: GatewayError): Advice {
  const problems = e.toolInputProblems ?? [];
  const names = [...new Set(problems.map((p) => (p.name ? `"${p.name}"` : 'a tool')))].join(', ');
  const maxTokens = e.partial?.stop_reason === 'max_tokens';
  return {
    title: `The model's call of ${names} could not be read.`,
    detail: maxTokens
      ? 'The answer hit the max_tokens limit in the middle of the tool input, so the input is incomplete. Raise the maximum output tokens (modelGateway.chat.maxTokens) and retry.'
      : 'The tool input the gateway sent is not valid JSON, so the tool was not called with it. Retry; if it persists, the gateway may be mangling tool calls.',
    actions: ['retry', 'showLog'],
  };
}

function adviseTimeout(e: GatewayError, c: AdviceContext): Advice {
  if (e.route.startsWith('GET ')) {
    return { title: 'The gateway did not answer in time.', detail: 'Reading is safe to repeat: retry, or check the connection.', actions: ['retry', 'checkConnection'] };
  }
  const image = c.surface === 'image'
    ? ' Image calls are billable and can take long: check your console (or the image tasks) before generating again, or raise modelGateway.requestTimeoutSeconds.'
    : ' Check your console usage before sending it again, or raise modelGateway.requestTimeoutSeconds.';
  return {
    title: 'No answer in time: the outcome is unknown.',
    detail: `The request may still have been processed and charged, so it was not replayed automatically.${image}${e.partial ? ' The partial answer is kept and marked as cut off.' : ''}`,
    actions: ['retry', 'showLog'],
  };
}

function adviseNetwork(e: GatewayError, c: AdviceContext): Advice {
  const where = c.baseUrl ? ` at ${c.baseUrl}` : '';
  const dropped = e.outcomeUnknown
    ? ' The connection dropped after the request was sent: the outcome is unknown and it may have been charged, so it was not replayed.'
    : '';
  return {
    title: `Could not reach the gateway${where}.`,
    detail: `Check the base URL, your network and the proxy settings (http.proxy).${dropped}${e.partial ? ' The partial answer is kept and marked as cut off.' : ''}`,
    actions: ['checkConnection', 'openBaseUrlSetting', 'retry'],
  };
}

function adviseProtocol(e: GatewayError): Advice {
  if (e.partial) {
    return {
      title: 'The answer was cut off.',
      detail: 'The stream ended before the answer was complete; the partial text is kept and marked as incomplete. It may have been charged, so it was not replayed.',
      actions: ['retry', 'showLog'],
    };
  }
  return {
    title: "The gateway's answer could not be read.",
    detail: 'The base URL may point to something that is not a compatible gateway (for example a web page or a proxy). Run Check Connection to see the exact URLs.',
    actions: ['checkConnection', 'openBaseUrlSetting', 'showLog'],
  };
}

function adviseBadRequest(e: GatewayError, c: AdviceContext): Advice {
  if (e.serverCode === 'INVALID_BASE_URL') return { title: 'The base URL cannot be used.', detail: e.message, actions: ['openBaseUrlSetting'] };
  if (e.status === 413) return { title: 'The request is too large (413).', detail: `Send fewer or smaller attachments or images.${said(e)}`, actions: ['showLog'] };
  const modelHint = /model/i.test(e.serverMessage ?? '') ? ['refreshModels' as const] : [];
  const imageHint = c.surface === 'image'
    ? ' Check the size, quality and number of images, and that the model is an image model returned for this key.'
    : '';
  return {
    title: `The gateway rejected the request${e.status ? ` (${e.status})` : ''}.`,
    detail: `${said(e).trim() || 'The request was not accepted.'}${imageHint}`,
    actions: [...modelHint, 'showLog'],
  };
}

// Errors that are not GatewayErrors never hold the key, but be careful with anything token-like.
function withoutSecrets(text: string): string {
  return text.replace(/(bearer\s+|x-api-key[:=]\s*)\S+/gi, '$1[redacted]').replace(/\b(sk|mg)-[A-Za-z0-9_-]{8,}\b/g, '[redacted]');
}
