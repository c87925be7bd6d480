// Key authentication per route (x-api-key on messages, Bearer on image routes, either on models) and group checks.

import { sendError, sendFlat } from './errors';
import { header, type Ctx } from './http';
import type { KeyConfig, RouteName } from './types';

export type AuthMode = 'x-api-key' | 'bearer' | 'either';

function bearer(ctx: Ctx): string | undefined {
  const value = header(ctx.req, 'authorization');
  const m = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return m ? m[1] : undefined;
}

function presented(ctx: Ctx, mode: AuthMode): string | undefined {
  const apiKey = header(ctx.req, 'x-api-key')?.trim() || undefined;
  if (mode === 'x-api-key') return apiKey;
  if (mode === 'bearer') return bearer(ctx);
  return apiKey ?? bearer(ctx);
}

const WHERE: Record<AuthMode, string> = {
  'x-api-key': 'the x-api-key header',
  bearer: 'an Authorization: Bearer header',
  either: 'an Authorization: Bearer or x-api-key header',
};

/** Finds the key the request presents; answers 401 (missing / unknown / revoked, each its own message) otherwise. */
export function authenticate(ctx: Ctx, mode: AuthMode): KeyConfig | undefined {
  const secret = presented(ctx, mode);
  if (!secret) {
    sendError(ctx, 401, `Missing API key: send it in ${WHERE[mode]}.`, 'missing_api_key');
    return undefined;
  }
  const key = ctx.state.keys.get(secret);
  if (!key) {
    sendError(ctx, 401, 'Invalid API key: the key is incomplete or wrong.', 'INVALID_API_KEY');
    return undefined;
  }
  ctx.entry.keyName = key.name;
  if (key.revoked) {
    sendError(ctx, 401, 'This API key has been revoked. Create a new key in the console.', 'API_KEY_DISABLED');
    return undefined;
  }
  return key;
}

const ALWAYS_ALLOWED: RouteName[] = [
  'models',
  'model.info',
  'images.tasks',
  'billing.subscription',
  'billing.usage',
  'key',
  'key.info',
];

/** 403 when the key's group is disabled or may not use this route. */
export function checkGroup(ctx: Ctx): boolean {
  const groupName = ctx.key!.group;
  const group = ctx.state.config.groups[groupName];
  if (!group || group.enabled === false) {
    sendFlat(ctx, 403, 'GROUP_DISABLED', `Key group '${groupName}' is disabled. Ask the console administrator.`);
    return false;
  }
  // chat-completions, Responses and the fill-in-the-middle routes ask the same chat models: the same permission as
  // Messages.
  const route = ['chat.completions', 'responses', 'completions', 'fim.completions'].includes(ctx.route)
    ? 'messages'
    : ctx.route;
  if (ALWAYS_ALLOWED.includes(ctx.route) || group.routes.includes(route)) return true;
  if (ctx.route.startsWith('images.')) {
    sendFlat(ctx, 403, 'IMAGE_NOT_ENABLED', `image generation is not enabled for this group ('${groupName}').`);
  } else {
    sendFlat(
      ctx,
      403,
      'ACCESS_DENIED',
      `The route ${ctx.req.method} ${ctx.url.pathname} is not enabled for this group ('${groupName}').`,
    );
  }
  return false;
}
