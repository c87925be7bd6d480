// Which links from model output the host agrees to open (pure).

/** The URL to open for a link the webview asked for, or undefined: http(s) only, no credentials in it. */
export function validateExternalLink(href: string): URL | undefined {
  if (href.length > 8192 || /[\u0000-\u001f\u007f\s]/.test(href)) return undefined;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password || !url.hostname) return undefined;
  return url;
}
