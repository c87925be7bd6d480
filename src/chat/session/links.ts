// Which links from model output the host agrees to open (pure). The rules live in src/shared/linkPolicy.ts so the
// webviews render links with the same verdict; this is the check that counts (a webview is never trusted).
import { english, type Localizer } from '../../shared/l10n';
import { checkLink, type LinkVerdict } from '../../shared/linkPolicy';

export { checkLink, type LinkVerdict };

/** The URL to open for a link the webview asked for, or undefined (see checkLink for why one is refused). */
export function validateExternalLink(href: string): URL | undefined {
  const verdict = checkLink(href);
  return verdict.ok ? verdict.url : undefined;
}

/** What the confirmation shows: the exact address that will open, ASCII only, and why it may look different. */
export function linkConfirmationDetail(verdict: Extract<LinkVerdict, { ok: true }>, l10n: Localizer = english): string {
  const lines = [
    verdict.display,
    '',
    l10n.t('The link comes from model output. Its text can claim anything: check the address above.'),
  ];
  if (verdict.internationalHost)
    lines.push(
      l10n.t('The host name has non-ASCII letters; it is shown in its ASCII (punycode) form, as it will be opened.'),
    );
  return lines.join('\n');
}
