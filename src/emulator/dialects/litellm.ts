// LiteLLM proxy (BerriAI/litellm), as its sources shape replies (facts read from its Python sources; the
// code here is ours):
// - Errors are ProxyException.to_dict() under "error": {"message","type","param","code"} where code is
//   the HTTP status as a string and param is often the string "None".
// - A wrong key: 401 type "token_not_found_in_db", param "key", message "Authentication Error, Invalid
//   proxy server token passed. Received API Key = sk-...<last 4>, Key Hash (Token) =<sha256>. ..." (it
//   echoes the key's last four characters and its hash).
// - Provider errors are wrapped: "litellm.RateLimitError: RateLimitError: OpenAIException - <message>".
// - An unknown path: FastAPI's {"detail":"Not Found"} (a bare reason phrase).
// - Streams on /v1/messages keep `event:` lines, but an error after the stream started is written by
//   async_data_generator as a bare `data: {"error": {...}}` line: no event line, no "type":"error".
// - The request id header is `x-litellm-call-id`; each call's cost goes in `x-litellm-response-cost`.
// - GET /key/info answers {key, info:{spend, max_budget, ...}} for the calling key.
// - GET /v1/models: {data:[{id,object:"model",created,owned_by:"openai"}],object:"list"}, no kind; the mode
//   (chat, image_generation, embedding, audio_transcription, …) and limits are on GET /model/info
//   ({data:[{model_name,litellm_params,model_info:{mode,max_input_tokens,max_output_tokens}}]}).
// - A model the proxy cannot route: 400 "… Invalid model name passed in model=X"
//   (proxy/anthropic_endpoints/endpoints.py, router.py).
// - Images: only the sync routes; no async routes or tasks.
import { createHash, randomUUID } from 'node:crypto';
import type { OtherModelKind } from '../types';
import { header } from '../http';
import { SPEC_ASYNC_IMAGE_ROUTES } from './newApi';
import { json, type Dialect, type DialectCtx, type DialectError, type DialectReply, type ListedModel } from './types';

const LITELLM_MODE: Record<OtherModelKind, string> = {
  embedding: 'embedding',
  audio: 'audio_transcription',
  video: 'video_generation',
  rerank: 'rerank',
  moderation: 'moderation',
  responses: 'responses',
};

function modeOf(m: ListedModel): string {
  if (m.kind) return LITELLM_MODE[m.kind];
  return m.protocol === 'images' ? 'image_generation' : 'chat';
}

const EXCEPTIONS: Record<number, [string, string]> = {
  400: ['BadRequestError', 'invalid_request_error'],
  401: ['AuthenticationError', 'auth_error'],
  403: ['PermissionDeniedError', 'permission_error'],
  404: ['NotFoundError', 'not_found_error'],
  408: ['Timeout', 'timeout'],
  429: ['RateLimitError', 'throttling_error'],
  500: ['InternalServerError', 'None'],
  502: ['APIConnectionError', 'None'],
  503: ['ServiceUnavailableError', 'None'],
  504: ['Timeout', 'timeout'],
};

function presentedKey(ctx: DialectCtx): string {
  const bearer = /^Bearer\s+(.+)$/i.exec(header(ctx.req, 'authorization') ?? '')?.[1];
  return header(ctx.req, 'x-api-key') ?? bearer ?? '';
}

export const litellm: Dialect = {
  name: 'litellm',
  account: 'litellm',
  missingRoutes: SPEC_ASYNC_IMAGE_ROUTES,
  modelList: (_ctx, models) => ({
    data: models.map((m) => ({ id: m.id, object: 'model', created: 1677610602, owned_by: 'openai' })),
    object: 'list',
  }),
  modelInfo: (models) => ({
    data: models.map((m) => ({
      model_name: m.id,
      litellm_params: { model: `openai/${m.id}` },
      model_info: {
        id: createHash('sha256').update(m.id).digest('hex').slice(0, 16),
        mode: modeOf(m),
        ...(m.protocol === 'messages' && !m.kind ? { max_input_tokens: 200000, max_output_tokens: 64000 } : {}),
        ...(m.vision !== undefined ? { supports_vision: m.vision } : {}),
      },
    })),
  }),
  modelUnavailable: (ctx, model) =>
    json(400, {
      error: {
        message: `{'error': '${ctx.entry.path}: Invalid model name passed in model=${model}. Call \`/v1/models\` to view available models for your key.'}`,
        type: 'None',
        param: 'None',
        code: '400',
      },
    }),
  // A fresh call id per request, as LiteLLM logs each call under its own uuid.
  requestIdHeaders: () => ({ 'x-litellm-call-id': randomUUID() }),
  error(ctx: DialectCtx, e: DialectError): DialectReply | undefined {
    if (e.status === 404 && e.code === 'not_found') return json(404, { detail: 'Not Found' });
    const code = String(e.status);
    if (e.status === 401 && e.source === 'gateway') {
      const key = presentedKey(ctx);
      const hash = createHash('sha256').update(key).digest('hex');
      return json(
        401,
        {
          error: {
            message: `Authentication Error, Invalid proxy server token passed. Received API Key = sk-...${key.slice(-4)}, Key Hash (Token) =${hash}. Unable to find token in cache or \`LiteLLM_VerificationTokenTable\``,
            type: 'token_not_found_in_db',
            param: 'key',
            code,
          },
        },
        e.headers,
      );
    }
    if (e.source === 'upstream') {
      const [cls, type] = EXCEPTIONS[e.status] ?? ['APIError', 'None'];
      return json(
        e.status,
        { error: { message: `litellm.${cls}: ${cls}: OpenAIException - ${e.message}`, type, param: 'None', code } },
        e.headers,
      );
    }
    return json(e.status, { error: { message: e.message, type: e.code ?? 'None', param: 'None', code } }, e.headers);
  },
  sse: {
    errorFrame: (type, message) =>
      `data: ${JSON.stringify({
        error: {
          message: `litellm.InternalServerError: AnthropicException - ${message}`,
          type,
          param: 'None',
          code: '500',
        },
      })}\n\n`,
  },
};
