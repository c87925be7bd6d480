// The gateway dialects (one file per profile) and how a request picks one: the `x-emulator-dialect`
// header, else emulator.json's "dialect"; neither (or "default") keeps the emulator's own shapes.
import type { IncomingMessage } from 'node:http';
import { htmlProxy } from './htmlProxy';
import { litellm } from './litellm';
import { newApi, oneApi } from './newApi';
import { openRouter } from './openRouter';
import { portkey } from './portkey';
import { router } from './router';
import { sub2api } from './sub2api';
import { DIALECT_HEADER, DIALECT_NAMES, type Dialect, type DialectName } from './types';

export {
  DIALECT_HEADER,
  DIALECT_NAMES,
  type Dialect,
  type DialectError,
  type DialectName,
  type DialectReply,
  type AccountShape,
  type SseHabits,
} from './types';

export const DIALECTS: Record<DialectName, Dialect> = {
  'new-api': newApi,
  'one-api': oneApi,
  sub2api,
  litellm,
  router,
  'html-proxy': htmlProxy,
  openrouter: openRouter,
  portkey,
};

/** The dialect for a name; 'default', '' and undefined mean none; an unknown name throws. */
export function dialectByName(name: string | undefined): Dialect | undefined {
  if (name === undefined || name === '' || name === 'default') return undefined;
  const d = (DIALECTS as Record<string, Dialect | undefined>)[name];
  if (!d) throw new Error(`unknown dialect '${name}' (known: default, ${DIALECT_NAMES.join(', ')})`);
  return d;
}

/** The request's dialect: its header wins over the configured one. Throws on an unknown name. */
export function dialectOf(req: IncomingMessage, configured: string | undefined): Dialect | undefined {
  const raw = req.headers[DIALECT_HEADER];
  const fromHeader = Array.isArray(raw) ? raw[0] : raw;
  return dialectByName(fromHeader !== undefined ? fromHeader.trim() : configured);
}
