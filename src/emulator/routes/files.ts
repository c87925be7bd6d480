// GET /files/<id>.png: images returned with response_format=url (no auth, like a signed URL; they expire).

import { sendError } from '../errors';
import type { Ctx } from '../http';

export function handleFile(ctx: Ctx): void {
  const m = /^\/files\/([A-Za-z0-9_]+)\.png$/.exec(ctx.url.pathname);
  const file = m ? ctx.state.files.get(m[1]) : undefined;
  if (!file || file.expiresAt < Date.now() || ctx.req.method !== 'GET') {
    sendError(ctx, 404, 'File not found or expired.', 'file_not_found');
    return;
  }
  ctx.res.writeHead(200, {
    'content-type': 'image/png',
    'content-length': String(file.png.length),
    'cache-control': 'private, max-age=3600',
  });
  ctx.res.end(file.png);
}
