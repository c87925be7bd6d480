// The route table: method + path → route name, auth mode, error style, billable, handler.

import type { AuthMode } from './auth';
import type { Ctx, ErrorStyle } from './http';
import { handleMessages } from './routes/messages';
import { handleChatCompletions } from './routes/chatCompletions';
import { handleResponses } from './routes/responses';
import { handleCompletions } from './routes/completions';
import { handleModelInfo, handleModels } from './routes/models';
import { handleImageEdit, handleImageGeneration } from './routes/images';
import { handleTaskRead } from './routes/tasks';
import { handleKey, handleKeyInfo, handleSubscription, handleUsage } from './routes/account';
import type { AccountShape } from './dialects/types';
import type { RouteName } from './types';

export interface RouteDef {
  method: 'GET' | 'POST';
  match: (path: string) => boolean;
  route: RouteName;
  auth: AuthMode;
  style: ErrorStyle;
  billable: boolean;
  handler: (ctx: Ctx) => Promise<void> | void;
  /** An account route: served only by gateways of this shape (the emulator's default is new-api's). */
  account?: AccountShape;
}

const exact =
  (p: string) =>
  (path: string): boolean =>
    path === p;

export const ROUTES: RouteDef[] = [
  {
    method: 'POST',
    match: exact('/v1/messages'),
    route: 'messages',
    auth: 'x-api-key',
    style: 'messages',
    billable: true,
    handler: handleMessages,
  },
  {
    method: 'POST',
    match: exact('/v1/chat/completions'),
    route: 'chat.completions',
    auth: 'bearer',
    style: 'openai',
    billable: true,
    handler: handleChatCompletions,
  },
  {
    method: 'POST',
    match: exact('/v1/responses'),
    route: 'responses',
    auth: 'bearer',
    style: 'openai',
    billable: true,
    handler: handleResponses,
  },
  {
    // Fill-in-the-middle (prompt + suffix) for coder models; one-api and new-api relay it, sub2api has no such route.
    method: 'POST',
    match: exact('/v1/completions'),
    route: 'completions',
    auth: 'bearer',
    style: 'openai',
    billable: true,
    handler: (c) => handleCompletions(c, false),
  },
  {
    // Mistral's fill-in-the-middle route (Codestral).
    method: 'POST',
    match: exact('/v1/fim/completions'),
    route: 'fim.completions',
    auth: 'bearer',
    style: 'openai',
    billable: true,
    handler: (c) => handleCompletions(c, true),
  },
  {
    method: 'GET',
    match: exact('/v1/models'),
    route: 'models',
    auth: 'either',
    style: 'openai',
    billable: false,
    handler: handleModels,
  },
  {
    // LiteLLM's per-model mode and limits; only the litellm dialect has it (the others answer 404).
    method: 'GET',
    match: (p) => p === '/model/info' || p === '/v1/model/info',
    route: 'model.info',
    auth: 'either',
    style: 'openai',
    billable: false,
    handler: handleModelInfo,
  },
  {
    method: 'POST',
    match: exact('/v1/images/generations'),
    route: 'images.generations',
    auth: 'bearer',
    style: 'openai',
    billable: true,
    handler: (c) => handleImageGeneration(c, false),
  },
  {
    method: 'POST',
    match: exact('/v1/images/edits'),
    route: 'images.edits',
    auth: 'bearer',
    style: 'openai',
    billable: true,
    handler: (c) => handleImageEdit(c, false),
  },
  {
    method: 'POST',
    match: exact('/v1/images/generations/async'),
    route: 'images.generations.async',
    auth: 'bearer',
    style: 'openai',
    billable: true,
    handler: (c) => handleImageGeneration(c, true),
  },
  {
    method: 'POST',
    match: exact('/v1/images/edits/async'),
    route: 'images.edits.async',
    auth: 'bearer',
    style: 'openai',
    billable: true,
    handler: (c) => handleImageEdit(c, true),
  },
  {
    method: 'GET',
    match: (p) => /^\/v1\/images\/tasks\/[^/]+$/.test(p),
    route: 'images.tasks',
    auth: 'bearer',
    style: 'openai',
    billable: false,
    handler: handleTaskRead,
  },
  ...accountRoutes(),
];

function accountRoutes(): RouteDef[] {
  const get = (paths: string[], route: RouteName, account: AccountShape, handler: RouteDef['handler']): RouteDef => ({
    method: 'GET',
    match: (p) => paths.includes(p),
    route,
    auth: 'bearer',
    style: 'openai',
    billable: false,
    handler,
    account,
  });
  return [
    get(
      ['/dashboard/billing/subscription', '/v1/dashboard/billing/subscription'],
      'billing.subscription',
      'new-api',
      handleSubscription,
    ),
    get(['/dashboard/billing/usage', '/v1/dashboard/billing/usage'], 'billing.usage', 'new-api', handleUsage),
    get(['/v1/key', '/api/v1/key'], 'key', 'openrouter', handleKey),
    get(['/key/info'], 'key.info', 'litellm', handleKeyInfo),
  ];
}

/** The route for a path, and whether the method matches (a known path with the wrong method is a 405). */
export function findRoute(method: string, path: string): { def?: RouteDef; wrongMethod: boolean } {
  const byPath = ROUTES.filter((r) => r.match(path));
  const def = byPath.find((r) => r.method === method);
  return { def, wrongMethod: !def && byPath.length > 0 };
}
