// The ONE place where errors become words: the spec's error table (401/403/404/429/5xx/timeout)
// turned into a title, a detail and the actions the UI offers. Texts of a GatewayError are already
// redacted by the client; nothing here adds secrets.
// The words go through `context.l10n` (vscode.l10n in the host; English when absent), whole sentences with
// placeholders, so a translation never has to glue fragments; the English text is the message id.
import { english, type Localizer } from '../../shared/l10n';
import { redactSecrets } from '../../shared/secretRedaction';
import type { GatewayError } from './errors';
import { isGatewayError } from './errors';
import { isChatRouteRefusal, noAccountFor } from '../dialects/dialect';
import { ROUTES } from '../dialects/dialectPlan';
import type { Advice, AdviceContext } from './adviceTypes';
import { adviseCut, adviseToolInput } from './adviceCut';

export type { Advice, AdviceAction, AdviceContext, AdviceSurface } from './adviceTypes';

const CHAT_ROUTES = new Set(Object.values(ROUTES));

type Adviser = (e: GatewayError, c: AdviceContext, l10n: Localizer) => Advice;

/** Turns any error into words and actions following the spec's error table. */
export function adviseOnError(error: unknown, context: AdviceContext): Advice {
  const l10n = context.l10n ?? english;
  if (!isGatewayError(error)) {
    const text = error instanceof Error ? error.message : String(error);
    return { title: l10n.t('Something went wrong.'), detail: withoutSecrets(text).slice(0, 300), actions: ['showLog'] };
  }
  // A cut stream and an unusable tool input are explained by what happened, whatever the socket or
  // parser called it: the gateway was reached and answered (HTTP 200).
  const adviser =
    error.kind === 'aborted'
      ? ADVISERS.aborted
      : error.cut
        ? adviseCut
        : error.toolInputProblems?.length && error.kind === 'protocol'
          ? adviseToolInput
          : error.status !== 404 && isModelUnavailable(error)
            ? adviseModelUnavailable
            : error.status === 501
              ? adviseNotImplemented
              : (ADVISERS[error.kind] ?? adviseProtocol);
  const advice = adviser(error, context, l10n);
  // A chat route refused for this model before processing, with no dialect left to try: the setting can choose another.
  if (CHAT_ROUTES.has(error.route) && error.model && isChatRouteRefusal(error))
    advice.detail = `${advice.detail} ${l10n.t(
      'The gateway refused {0} for {1} before processing it, and no other dialect was left to try: set modelGateway.models.dialects to call this model over another one (messages, chat-completions or responses).',
      error.route,
      error.model,
    )}`.trim();
  // sub2api found no account of the key's group for the model on this route (nothing was processed) and nothing
  // proved which other dialect the group serves, so it was not re-sent: the setting can choose one.
  if (CHAT_ROUTES.has(error.route) && error.model && noAccountFor(error))
    advice.detail = `${advice.detail} ${l10n.t(
      'The gateway found no account in your key group for {0} on {1}: if the group serves another API (an OpenAI group takes chat-completions and Responses), set modelGateway.models.dialects to call {0} over it.',
      error.model,
      error.route,
    )}`.trim();
  // dialectCall.ts marked a 400 that rejects the reasoning effort this client sent (it is not retried without it).
  if (error.kind === 'bad_request' && error.message.includes('modelGateway.models.reasoning'))
    advice.detail = `${advice.detail} ${l10n.t(
      'The gateway rejected the reasoning effort set for this model (modelGateway.models.reasoning): set it to "off" or remove the entry for this model.',
    )}`.trim();
  if (error.requestId && error.kind !== 'aborted')
    advice.detail = `${advice.detail} ${l10n.t('Request ID: {0}.', redactSecrets(error.requestId))}`.trim();
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
  aborted: (_e, _c, l10n) => ({ title: l10n.t('Cancelled.'), detail: '', actions: [] }),
};

/** What the server said, as a sentence with a leading space; '' when it said nothing. */
function said(e: GatewayError, l10n: Localizer): string {
  if (!e.serverMessage) return '';
  // errorBody labels proxy/CDN pages "HTML error page[ from <server>]: <text>": that is not the gateway speaking.
  const page = /^HTML error page( from ([^:]+))?: ([\s\S]*)$/.exec(e.serverMessage);
  if (page) {
    const text = page[3].replace(/[.\s]+$/, '');
    return ` ${
      page[2]
        ? l10n.t(
            'The answer was an HTML error page from {0} ("{1}"): a proxy or CDN in front of the gateway answered, not the gateway\'s API.',
            page[2],
            text,
          )
        : l10n.t(
            'The answer was an HTML error page ("{0}"): a proxy or CDN in front of the gateway answered, not the gateway\'s API.',
            text,
          )
    }`;
  }
  return ` ${l10n.t('The gateway said: "{0}".', e.serverMessage.replace(/[.\s]+$/, ''))}`;
}

function upstreamNote(l10n: Localizer): string {
  return l10n.t(
    'The gateway accepted your key; the error came from the provider behind the gateway and was only passed on.',
  );
}

function adviseAuth(e: GatewayError, _c: AdviceContext, l10n: Localizer): Advice {
  if (e.upstream) {
    return {
      title: l10n.t("The gateway's upstream provider rejected the gateway's own credentials (401)."),
      detail: `${upstreamNote(l10n)} ${l10n.t('Replacing your key will not help: the gateway admin has to fix the provider key (channel) behind this model, or pick another model.')}${said(e, l10n)}`,
      actions: ['refreshModels', 'retry', 'showLog'],
    };
  }
  const support = l10n.t(
    'Never paste the key into a support request: Support only needs the timestamp, route, model, HTTP status and request ID (Copy Support Info).',
  );
  return {
    title: l10n.t('The gateway rejected the API key (401).'),
    detail: `${
      e.serverCode
        ? l10n.t('The key is incomplete, revoked or wrong ({0}).', e.serverCode)
        : l10n.t('The key is incomplete, revoked or wrong.')
    } ${l10n.t('Create a dedicated key for this device in your gateway console and replace it here.')} ${support}`,
    actions: ['replaceKey', 'checkConnection'],
  };
}

type ForbiddenCause = 'balance' | 'route' | 'model' | 'group' | 'expired' | undefined;

/** Which of the four 403 causes the server's code or message points at, if any. */
export function forbiddenCause(e: Pick<GatewayError, 'status' | 'serverCode' | 'serverMessage'>): ForbiddenCause {
  const text = `${e.serverCode ?? ''} ${e.serverMessage ?? ''}`.toLowerCase();
  if (e.status === 402 || /balance|quota|billing|credit|insufficient|payment|余额/.test(text)) return 'balance';
  if (/expired/.test(text)) return 'expired';
  if (/not enabled|route|endpoint|image generation|permission to (use|call) (this|the) (api|route)/.test(text))
    return 'route';
  if (/model/.test(text)) return 'model';
  if (/group/.test(text)) return 'group';
  return undefined;
}

/** A refusal for lack of balance or quota (402, or a 403 whose words say so): the balance is read again after it. */
export function isBalanceError(error: unknown): boolean {
  if (!isGatewayError(error)) return false;
  return error.status === 402 || (error.kind === 'forbidden' && forbiddenCause(error) === 'balance');
}

function adviseForbidden(e: GatewayError, c: AdviceContext, l10n: Localizer): Advice {
  const causes: Record<Exclude<ForbiddenCause, undefined>, () => Advice> = {
    balance: () => ({
      title: l10n.t('Not enough balance for this call (403).'),
      detail: l10n.t(
        'Your gateway balance does not allow this call. Top up or check your plan in the gateway console, then retry.',
      ),
      actions: ['openConsoleAdvice', 'retry'],
    }),
    route: () => ({
      title:
        c.surface === 'image'
          ? l10n.t('Image generation is not enabled for your key (403).')
          : l10n.t('Your key may not call this route (403).'),
      detail: l10n.t(
        'Your key group has no permission for {0}. Ask the gateway admin to enable it for your group, or use a key of a group that has it.',
        e.route,
      ),
      actions: ['openConsoleAdvice', 'checkConnection'],
    }),
    model: () => ({
      title: e.model
        ? l10n.t('The model "{0}" is not available to your key (403).', e.model)
        : l10n.t('The model is not available to your key (403).'),
      detail: l10n.t(
        'Only models returned by GET /v1/models for this key are callable. Refresh the model list and pick one of them.',
      ),
      actions: ['refreshModels', 'openConsoleAdvice'],
    }),
    group: () => ({
      title: l10n.t('Your key group does not allow this call (403).'),
      detail: l10n.t(
        'The key group may be disabled or may not include this model or route. Check the key group in your gateway console.',
      ),
      actions: ['openConsoleAdvice', 'checkConnection'],
    }),
    expired: () => ({
      title: l10n.t('The API key has expired (403).'),
      detail: l10n.t('Create a new key in your gateway console and replace it here.'),
      actions: ['replaceKey', 'openConsoleAdvice'],
    }),
  };
  if (e.upstream) {
    return {
      title: l10n.t("The gateway's upstream provider refused this call (403)."),
      detail: `${upstreamNote(l10n)} ${l10n.t('It is not about your key, group or balance: tell the gateway admin, or pick another model.')}${said(e, l10n)}`,
      actions: ['refreshModels', 'retry', 'showLog'],
    };
  }
  const cause = forbiddenCause(e);
  const advice = cause
    ? causes[cause]()
    : {
        title: l10n.t('The gateway refused this call (403).'),
        detail: e.model
          ? l10n.t(
              'Check the four things that govern access: the key group, whether the model "{0}" is visible to the key, your balance, and the route permission ({1}).',
              e.model,
              e.route,
            )
          : l10n.t(
              'Check the four things that govern access: the key group, whether the model is visible to the key, your balance, and the route permission ({0}).',
              e.route,
            ),
        actions: ['openConsoleAdvice', 'refreshModels', 'checkConnection'] as Advice['actions'],
      };
  return { ...advice, detail: advice.detail + said(e, l10n) };
}

/**
 * The gateway says the key may not call this model, whatever status it uses for it (docs/gateway-protocol.md#real-gateways):
 * new-api 503 `model_not_found` "当前分组 … 无可用渠道", sub2api 503 "No available accounts … supporting model",
 * LiteLLM 400 "Invalid model name", a 403 about the model's visibility.
 */
export function isModelUnavailable(e: Pick<GatewayError, 'status' | 'serverCode' | 'serverMessage'>): boolean {
  if (/^model_not_found$|^MODEL_NOT_AVAILABLE$/i.test(e.serverCode ?? '')) return true;
  const text = e.serverMessage ?? '';
  if (/无可用渠道|没有可用渠道/.test(text)) return true;
  if (/no available (accounts?|channels?|deployments?)\b[^\n]{0,80}\bmodel/i.test(text)) return true;
  if (/invalid model name/i.test(text)) return true;
  if (/model[^\n]{0,120}\bnot available (to|for) (your|this) (key|group|token)/i.test(text)) return true;
  return e.status === 403 && forbiddenCause(e) === 'model';
}

/** One diagnosis for every "not available to your key": the spec's causes, Refresh Models, never retry. */
function adviseModelUnavailable(e: GatewayError, _c: AdviceContext, l10n: Localizer): Advice {
  const status = e.status ?? '';
  return {
    title: e.model
      ? l10n.t('The model "{0}" is not available to your key (HTTP {1}).', e.model, status)
      : l10n.t('This model is not available to your key (HTTP {0}).', status),
    detail: `${l10n.t(
      'The gateway has no route to this model for your key: your key group may not include it, the model mapping may not map it to an upstream model, or the model may not support this protocol ({0}). Refresh the model list and pick a model it returns, or ask the gateway admin to add the model to your key group. Retrying the same call will not help.',
      e.route,
    )}${said(e, l10n)}`,
    actions: ['refreshModels', 'openConsoleAdvice'],
  };
}

/** 501: the gateway has the route but does not implement it (one-api's image edits). Retrying will not help. */
function adviseNotImplemented(e: GatewayError, _c: AdviceContext, l10n: Localizer): Advice {
  return {
    title: l10n.t('This gateway does not implement {0} (501).', e.route),
    detail: `${l10n.t('The route exists but the gateway has no implementation for it; retrying will not help. Use another feature or another gateway for this.')}${said(e, l10n)}`,
    actions: ['showLog'],
  };
}

function calledUrl(e: GatewayError, c: AdviceContext): string {
  const path = e.route.split(' ')[1] ?? '';
  return c.baseUrl ? `${c.baseUrl.replace(/\/+$/, '')}${path}` : path;
}

function adviseNotFound(e: GatewayError, c: AdviceContext, l10n: Localizer): Advice {
  const url = calledUrl(e, c);
  if (/model/i.test(`${e.serverCode ?? ''} ${e.serverMessage ?? ''}`) && e.model) {
    return {
      title: l10n.t('The model "{0}" was not found (404).', e.model),
      detail: `${l10n.t('Refresh the model list and choose a model returned for this key.')}${said(e, l10n)}`,
      actions: ['refreshModels', 'checkConnection'],
    };
  }
  const imageHint =
    c.surface === 'image' && /async|tasks/.test(e.route)
      ? ` ${l10n.t('If your gateway has no async image routes, set modelGateway.images.mode to "sync".')}`
      : '';
  // The base URL is right when the list answers there, or when the gateway says in words that it does not
  // serve this route (sub2api: "Images API is not supported for this platform").
  const saysUnsupported = /not (supported|implemented|available)|unsupported/i.test(e.serverMessage ?? '');
  if ((c.listWorks && !e.route.endsWith(' /v1/models')) || saysUnsupported) {
    return {
      title: l10n.t('This gateway does not offer {0} (404).', e.route),
      detail: `${
        c.listWorks
          ? l10n.t(
              'GET /v1/models works at the same base URL, so the base URL is right: this gateway (or your key group on it) has no such route.',
            )
          : l10n.t('The gateway answered that it does not serve this route for your key, so the base URL is right.')
      }${imageHint}${said(e, l10n)}`,
      actions: ['checkConnection', 'showLog'],
    };
  }
  return {
    title: l10n.t('Not found (404): {0}', url),
    detail: `${l10n.t('A 404 almost always means a wrong base URL. Use the site root of your gateway (for example https://gw.example.com): no /v1, and no full endpoint such as /v1/messages; /v1 appended twice or a full endpoint as the base URL gives 404.')}${imageHint}`,
    actions: ['openBaseUrlSetting', 'checkConnection'],
  };
}

function seconds(ms: number, l10n: Localizer): string {
  return ms >= 90_000 ? l10n.t('{0} min', Math.ceil(ms / 60_000)) : l10n.t('{0} s', Math.max(1, Math.ceil(ms / 1000)));
}

function adviseRateLimited(e: GatewayError, _c: AdviceContext, l10n: Localizer): Advice {
  const wait = e.retryAfterMs;
  return {
    title: l10n.t('Too many requests (429).'),
    detail:
      (wait !== undefined
        ? l10n.t(
            'The gateway asked to wait {0} (Retry-After). Requests are queued and sent one at a time; retry after the wait, and do not resend a batch at once.',
            seconds(wait, l10n),
          )
        : l10n.t(
            'Requests are queued and sent one at a time. Wait a moment before retrying, and do not resend a batch at once.',
          )) +
      (e.upstream
        ? ` ${l10n.t("The limit is the upstream provider's, shared by everyone on this gateway, not your key's.")}${said(e, l10n)}`
        : ''),
    actions: ['retry'],
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  };
}

function partialKept(e: GatewayError, l10n: Localizer): string {
  return e.partial ? ` ${l10n.t('The partial answer is kept and marked as cut off.')}` : '';
}

function adviseServer(e: GatewayError, c: AdviceContext, l10n: Localizer): Advice {
  const midStream = e.status === undefined || e.status < 500;
  const title = !midStream
    ? l10n.t('The gateway had a server error (HTTP {0}).', e.status ?? '')
    : e.serverCode === 'overloaded_error'
      ? l10n.t('The gateway reported that the model is overloaded during the answer.')
      : l10n.t('The gateway reported an error during the answer.');
  const safe = e.route.startsWith('GET ');
  const image = c.surface === 'image';
  const detail = safe
    ? l10n.t('It was retried a few times already. Try again later.')
    : e.outcomeUnknown
      ? image
        ? l10n.t(
            'Image calls are billable, so it was not replayed automatically (it may have been processed and charged: check your console usage first). Retry when you choose.',
          )
        : l10n.t(
            'The call may be billable, so it was not replayed automatically (it may have been processed and charged: check your console usage first). Retry when you choose.',
          )
      : image
        ? l10n.t('Image calls are billable, so it was not replayed automatically. Retry when you choose.')
        : l10n.t('The call may be billable, so it was not replayed automatically. Retry when you choose.');
  const upstream = e.upstream ? ` ${l10n.t('The error came from the provider behind the gateway.')}` : '';
  return { title, detail: detail + partialKept(e, l10n) + upstream + said(e, l10n), actions: ['retry', 'showLog'] };
}

function adviseTimeout(e: GatewayError, c: AdviceContext, l10n: Localizer): Advice {
  if (e.route.startsWith('GET ')) {
    return {
      title: l10n.t('The gateway did not answer in time.'),
      detail: l10n.t('Reading is safe to repeat: retry, or check the connection.'),
      actions: ['retry', 'checkConnection'],
    };
  }
  const next =
    c.surface === 'image'
      ? l10n.t(
          'Image calls are billable and can take long: check your console (or the image tasks) before generating again, or raise modelGateway.requestTimeoutSeconds.',
        )
      : l10n.t('Check your console usage before sending it again, or raise modelGateway.requestTimeoutSeconds.');
  return {
    title: l10n.t('No answer in time: the outcome is unknown.'),
    detail: `${l10n.t('The request may still have been processed and charged, so it was not replayed automatically.')} ${next}${partialKept(e, l10n)}`,
    actions: ['retry', 'showLog'],
  };
}

function adviseNetwork(e: GatewayError, c: AdviceContext, l10n: Localizer): Advice {
  const dropped = e.outcomeUnknown
    ? ` ${l10n.t('The connection dropped after the request was sent: the outcome is unknown and it may have been charged, so it was not replayed.')}`
    : '';
  return {
    title: c.baseUrl
      ? l10n.t('Could not reach the gateway at {0}.', c.baseUrl)
      : l10n.t('Could not reach the gateway.'),
    detail: `${l10n.t('Check the base URL, your network and the proxy settings (http.proxy).')}${dropped}${partialKept(e, l10n)}`,
    actions: ['checkConnection', 'openBaseUrlSetting', 'retry'],
  };
}

function adviseProtocol(e: GatewayError, _c: AdviceContext, l10n: Localizer): Advice {
  if (e.partial) {
    return {
      title: l10n.t('The answer was cut off.'),
      detail: l10n.t(
        'The stream ended before the answer was complete; the partial text is kept and marked as incomplete. It may have been charged, so it was not replayed.',
      ),
      actions: ['retry', 'showLog'],
    };
  }
  return {
    title: l10n.t("The gateway's answer could not be read."),
    detail: l10n.t(
      'The base URL may point to something that is not a compatible gateway (for example a web page or a proxy). Run Check Connection to see the exact URLs.',
    ),
    actions: ['checkConnection', 'openBaseUrlSetting', 'showLog'],
  };
}

/** How gateways word a refused image input (OpenAI, vLLM, LiteLLM, new-api relaying an upstream's 400). */
const IMAGE_REFUSAL =
  /(image|vision|multimodal|image_url)[^.]{0,80}(not|n't|un)\s?(supported|support|enabled|allowed)|(does not|doesn't|cannot|can't)\s(support|accept|process|read)[^.]{0,40}(image|vision)|invalid content type.{0,20}image_url/i;

function adviseBadRequest(e: GatewayError, c: AdviceContext, l10n: Localizer): Advice {
  if (e.serverCode === 'INVALID_BASE_URL')
    return { title: l10n.t('The base URL cannot be used.'), detail: e.message, actions: ['openBaseUrlSetting'] };
  if (e.serverCode === 'INVALID_REQUEST_HEADERS')
    return { title: l10n.t('Your request headers cannot be sent.'), detail: e.message, actions: ['showLog'] };
  if (e.status === 413)
    return {
      title: l10n.t('The request is too large (413).'),
      detail: `${l10n.t('Send fewer or smaller attachments or images.')}${said(e, l10n)}`,
      actions: ['showLog'],
    };
  // A model that does not read images, refused by the gateway: one sentence, no retry (the same request fails again).
  if (c.surface !== 'image' && IMAGE_REFUSAL.test(e.serverMessage ?? ''))
    return {
      title: l10n.t('This model does not take images.'),
      detail: `${l10n.t('The gateway refused the images of this question: remove them, or pick a model that reads images (modelGateway.models.vision tells the extension which do).')}${said(e, l10n)}`,
      actions: ['showLog'],
    };
  const modelHint = /model/i.test(e.serverMessage ?? '') ? ['refreshModels' as const] : [];
  const imageHint =
    c.surface === 'image'
      ? ` ${l10n.t('Check the size, quality and number of images, and that the model is an image model returned for this key.')}`
      : '';
  return {
    title: e.status
      ? l10n.t('The gateway rejected the request ({0}).', e.status)
      : l10n.t('The gateway rejected the request.'),
    detail: `${said(e, l10n).trim() || l10n.t('The request was not accepted.')}${imageHint}`,
    actions: [...modelHint, 'showLog'],
  };
}

// Errors that are not GatewayErrors never hold the key, but be careful with anything token-like.
function withoutSecrets(text: string): string {
  return redactSecrets(text);
}
