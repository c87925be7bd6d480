// Which links from model output may be opened, and how they are shown (pure: runs in the host and in the
// webviews, so both apply the same rules; the host's verdict is the one that counts).
// Model output is untrusted: a prompt-injected file can make a model emit any link, and link text can claim
// anything. A link is opened only when what the user is shown is exactly what opens: http(s), no credentials,
// no invisible or direction-changing characters, no host that mixes scripts or imitates Latin letters.
// The reasons are words for the user: they go through the Localizer passed in (vscode.l10n in the host, the page's
// string table in the webview; English by default).
import { english, type Localizer } from './l10n';

export const MAX_LINK_LENGTH = 2048;

export type LinkVerdict =
  | {
      ok: true;
      url: URL;
      /** The URL as it will be opened, ASCII only (host in punycode, the rest percent-encoded). */
      display: string;
      /** Set when the host has non-ASCII labels (shown in `display` as xn--…). */
      internationalHost: boolean;
    }
  | { ok: false; reason: string };

// Control, format (bidi controls, zero-width characters, soft hyphen…), separators and characters that render
// as nothing (Hangul fillers, variation selectors, combining grapheme joiner, braille blank).
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0]/u;
// The same, percent-encoded (markdown renderers encode them, and a model can write %E2%80%AE itself); a
// percent-encoded space is an ordinary part of an address.
const INVISIBLE_ENCODED =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0]/u;
const RAW_PREFIX = /^https?:\/\//i;

/** The verdict on a link's raw href, exactly as it appeared in the output. */
export function checkLink(raw: string | null | undefined, l10n: Localizer = english): LinkVerdict {
  if (!raw) return refuse(l10n.t('the link has no address'));
  if (raw.length > MAX_LINK_LENGTH) return refuse(l10n.t('the address is longer than {0} characters', MAX_LINK_LENGTH));
  if (INVISIBLE.test(raw) || /\s/.test(raw))
    return refuse(l10n.t('the address contains invisible, control or direction-changing characters'));
  // Only the literal forms http:// and https://: "https:host" or "HTTPS:/\\host" parse, but do not read as what they open.
  if (INVISIBLE_ENCODED.test(percentDecoded(raw)))
    return refuse(l10n.t('the address contains encoded invisible, control or direction-changing characters'));
  if (!RAW_PREFIX.test(raw)) return refuse(l10n.t('only http and https links are opened'));
  if (raw.includes('\\')) return refuse(l10n.t('the address contains a backslash'));
  const authority = raw.slice(raw.indexOf('//') + 2).split(/[/?#]/, 1)[0];
  if (authority.includes('@')) return refuse(l10n.t('the address contains a user name or password'));
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse(l10n.t('the address is not a valid URL'));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return refuse(l10n.t('only http and https links are opened'));
  if (url.username || url.password) return refuse(l10n.t('the address contains a user name or password'));
  if (!url.hostname || url.hostname.length > 253) return refuse(l10n.t('the address has no valid host'));
  let internationalHost = false;
  for (const label of url.hostname.split('.')) {
    if (!/^xn--/i.test(label)) continue;
    internationalHost = true;
    const unicode = decodePunycode(label.slice(4));
    if (unicode === undefined) return refuse(l10n.t('the host name is not valid'));
    const problem = labelProblem(unicode, l10n);
    if (problem) return refuse(problem);
  }
  if (url.href.length > MAX_LINK_LENGTH)
    return refuse(l10n.t('the address is longer than {0} characters', MAX_LINK_LENGTH));
  return { ok: true, url, display: url.href, internationalHost };
}

/** Each run of %XX sequences decoded as UTF-8 (an invalid run decodes to nothing: it cannot hide a character). */
function percentDecoded(raw: string): string {
  return raw.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return '';
    }
  });
}

function refuse(reason: string): LinkVerdict {
  return { ok: false, reason };
}

const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Nko',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Georgian',
  'Hangul',
  'Ethiopic',
  'Cherokee',
  'Khmer',
  'Mongolian',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
].map((name) => ({ name, test: new RegExp(`\\p{Script=${name}}`, 'u') }));
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;
// Script sets one label may combine (UTS #39 "highly restrictive"): Latin with the Japanese, Chinese or Korean ones.
const ALLOWED_MIXES = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];
// Cyrillic and Greek letters that look like Latin ones: a label made only of these imitates a Latin name.
const LATIN_LOOKALIKES = new Set(Array.from('аеорсухіјѕԁԍԛԝһкмнтвпгӏьъыюҽѵѡοανρτικυχεγηωβϲϳ'));

/** Why one decoded host label is refused, if it is. */
function labelProblem(label: string, l10n: Localizer): string | undefined {
  if (INVISIBLE.test(label)) return l10n.t('the host name contains invisible or direction-changing characters');
  const scripts = new Set<string>();
  for (const char of label) {
    if (NEUTRAL.test(char)) continue;
    scripts.add(SCRIPTS.find((s) => s.test.test(char))?.name ?? `other:${char}`);
  }
  if (scripts.size > 1 && !ALLOWED_MIXES.some((mix) => [...scripts].every((s) => mix.includes(s)))) {
    return l10n.t('the host name mixes writing systems (a look-alike of another address)');
  }
  if ((scripts.has('Cyrillic') || scripts.has('Greek')) && scripts.size === 1) {
    const letters = Array.from(label).filter((c) => !NEUTRAL.test(c));
    if (letters.every((c) => LATIN_LOOKALIKES.has(c.toLowerCase())))
      return l10n.t('the host name imitates a Latin address with look-alike letters');
  }
  return undefined;
}

/** RFC 3492 decoding of one label's part after "xn--"; undefined when it is not valid punycode. */
export function decodePunycode(input: string): string | undefined {
  const base = 36,
    tMin = 1,
    tMax = 26,
    skew = 38,
    damp = 700;
  const basicEnd = input.lastIndexOf('-');
  const output: number[] = [];
  for (let i = 0; i < Math.max(basicEnd, 0); i++) {
    const code = input.charCodeAt(i);
    if (code >= 0x80) return undefined;
    output.push(code);
  }
  let n = 128,
    bias = 72,
    i = 0;
  for (let index = basicEnd > 0 ? basicEnd + 1 : 0; index < input.length;) {
    const oldI = i;
    for (let w = 1, k = base; ; k += base) {
      if (index >= input.length) return undefined;
      const c = input.charCodeAt(index++);
      const digit = c >= 48 && c <= 57 ? c - 22 : c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 97 : base;
      if (digit >= base) return undefined;
      i += digit * w;
      const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
      if (digit < t) break;
      w *= base - t;
      if (w > 0x7fffffff || i > 0x7fffffff) return undefined;
    }
    const length = output.length + 1;
    let delta = oldI === 0 ? Math.floor((i - oldI) / damp) : (i - oldI) >> 1;
    delta += Math.floor(delta / length);
    let k = 0;
    for (; delta > ((base - tMin) * tMax) >> 1; k += base) delta = Math.floor(delta / (base - tMin));
    bias = Math.floor(k + ((base - tMin + 1) * delta) / (delta + skew));
    n += Math.floor(i / length);
    if (n > 0x10ffff) return undefined;
    i %= length;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}
