// Base-URL normalisation: users paste the site root, root + /v1, or a full endpoint. The client
// always calls root + /v1/<route> once, so everything from the /v1 segment on is removed.
// The words go through a Localizer (vscode.l10n when the host passes it; English by default).
import { english, type Localizer } from './l10n';

export interface NormalizedBaseUrl {
  /** The site root to prefix `/v1/...` with ('' when `problem` is set). */
  baseUrl: string;
  /** True when the result differs from the input as typed (surrounding spaces aside). */
  changed: boolean;
  /** What was changed, in words. */
  notice?: string;
  /** Why the input cannot be used. */
  problem?: string;
}

// Paths after /v1 that are endpoints (pasted by mistake), not part of a prefix.
const ENDPOINT_AFTER_V1 =
  /^(v1\/)*(messages(\/.*)?|chat\/completions|completions|models(\/.*)?|images(\/.*)?|embeddings|responses|v1)?$/i;

function fail(problem: string): NormalizedBaseUrl {
  return { baseUrl: '', changed: false, problem };
}

/** Normalises a pasted base URL to the site root and says what it changed or why it is unusable. */
export function normalizeBaseUrl(input: string, l10n: Localizer = english): NormalizedBaseUrl {
  const raw = (input ?? '').trim();
  if (raw === '')
    return fail(
      l10n.t('The base URL is empty. Enter the site root of your gateway, for example https://gw.example.com.'),
    );
  if (/\s/.test(raw))
    return fail(l10n.t('The base URL contains spaces. Paste only the address, for example https://gw.example.com.'));
  const schemeMatch = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw);
  if (!schemeMatch)
    return fail(l10n.t('The base URL has no scheme. Start it with https:// (for example https://gw.example.com).'));
  const scheme = schemeMatch[1].toLowerCase();
  if (scheme !== 'https' && scheme !== 'http') {
    return fail(
      l10n.t('The base URL uses {0}://; only https:// (or http:// for a local gateway) is supported.', scheme),
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(
      l10n.t('The base URL is not a valid address. Enter the site root, for example https://gw.example.com.'),
    );
  }
  if (url.username !== '' || url.password !== '') {
    return fail(
      l10n.t(
        'The base URL contains a user name or password. Remove them: the API key is stored separately, never in the URL.',
      ),
    );
  }
  if (url.search !== '' || raw.includes('?'))
    return fail(l10n.t('The base URL contains a query (?...). Remove it: enter only the site root.'));
  if (url.hash !== '' || raw.includes('#'))
    return fail(l10n.t('The base URL contains a fragment (#...). Remove it: enter only the site root.'));
  if (url.hostname === '') return fail(l10n.t('The base URL has no host name.'));
  return stripEndpointPath(raw, url, l10n);
}

function stripEndpointPath(raw: string, url: URL, l10n: Localizer): NormalizedBaseUrl {
  const segments = url.pathname.split('/').filter((s) => s !== '');
  let removed: string | undefined;
  let keep = segments.length;
  for (let i = 0; i < segments.length; i++) {
    if (segments[i].toLowerCase() !== 'v1') continue;
    const rest = segments.slice(i + 1).join('/');
    if (ENDPOINT_AFTER_V1.test(rest)) {
      keep = i;
      removed = '/' + segments.slice(i).join('/');
      break;
    }
  }
  const prefix = segments.slice(0, keep).join('/');
  const baseUrl = url.origin + (prefix === '' ? '' : '/' + prefix);
  const changed = baseUrl !== raw;
  if (!changed) return { baseUrl, changed: false };
  const notice =
    removed !== undefined
      ? l10n.t(
          'Base URL normalised to {0}: removed "{1}" from the end (the extension adds /v1/... itself).',
          baseUrl,
          removed,
        )
      : raw.endsWith('/')
        ? l10n.t('Base URL normalised to {0}: removed the trailing "/".', baseUrl)
        : l10n.t('Base URL normalised to {0}.', baseUrl);
  return { baseUrl, changed: true, notice };
}
