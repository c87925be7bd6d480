// A gateway behind a reverse proxy or CDN that answers some failures with its own HTML page:
// - nginx: 413 "Request Entity Too Large", 502 "Bad Gateway", 503 "Service Temporarily Unavailable",
//   504 "Gateway Time-out", its standard page (<title>, <center><h1>, "nginx" footer), `server: nginx`.
// - Cloudflare: 520-526 pages ("Web server is returning an unknown error", "A timeout occurred", ...),
//   with `server: cloudflare` and a `cf-ray` header, and no gateway request id.
// Other statuses pass through from the gateway unchanged (the emulator's default bodies).
import { randomBytes } from 'node:crypto';
import type { Dialect, DialectCtx, DialectError, DialectReply } from './types';

const NGINX: Record<number, string> = {
  413: 'Request Entity Too Large',
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
  504: 'Gateway Time-out',
};
const CLOUDFLARE: Record<number, string> = {
  520: 'Web server is returning an unknown error',
  521: 'Web server is down',
  522: 'Connection timed out',
  523: 'Origin is unreachable',
  524: 'A timeout occurred',
  525: 'SSL handshake failed',
  526: 'Invalid SSL certificate',
};

function nginxPage(status: number): string {
  const title = `${status} ${NGINX[status]}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

function cloudflarePage(ctx: DialectCtx, status: number, ray: string): string {
  const host = (ctx.req.headers.host ?? 'gateway').replace(/[<>&"]/g, '');
  return `<!DOCTYPE html>\n<html class="no-js" lang="en-US">\n<head>\n<title>${host} | ${status}: ${CLOUDFLARE[status]}</title>\n<meta charset="UTF-8" />\n<style>body{font-family:system-ui}</style>\n</head>\n<body>\n<div id="cf-wrapper">\n<div id="cf-error-details" class="cf-error-details-wrapper">\n<h1><span class="inline-block">${CLOUDFLARE[status]}</span> <span class="code-label">Error code ${status}</span></h1>\n<p>Visit <a href="https://www.cloudflare.com/5xx-error-landing">cloudflare.com</a> for more information.</p>\n<span>Cloudflare Ray ID: <strong class="font-semibold">${ray}</strong></span>\n</div>\n</div>\n</body>\n</html>\n`;
}

export const htmlProxy: Dialect = {
  name: 'html-proxy',
  error(ctx: DialectCtx, e: DialectError): DialectReply | undefined {
    if (NGINX[e.status]) {
      return {
        status: e.status,
        body: nginxPage(e.status),
        contentType: 'text/html',
        headers: { server: 'nginx', ...e.headers },
        noRequestId: true,
      };
    }
    if (CLOUDFLARE[e.status]) {
      const ray = `${randomBytes(8).toString('hex')}-FRA`;
      return {
        status: e.status,
        body: cloudflarePage(ctx, e.status, ray),
        contentType: 'text/html; charset=UTF-8',
        headers: { server: 'cloudflare', 'cf-ray': ray, ...e.headers },
        noRequestId: true,
      };
    }
    return undefined;
  },
  sse: {},
};
