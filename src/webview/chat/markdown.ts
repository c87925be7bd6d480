// Model output → safe DOM. marked renders markdown; raw HTML in the output is shown as text, and
// DOMPurify with a strict allow-list cleans what marked produced. Remote images are never loaded,
// links never navigate (the host opens http(s) links after validating them).
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { checkLink } from '../../shared/linkPolicy';
import { localizer, t } from '../common/strings';
import { highlightInto } from './highlight';

const escapeHtml = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // Raw HTML in model output is content to read, not markup to run.
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
  },
});

const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'img',
  'span',
  'div',
  'sup',
  'sub',
];
const ALLOWED_ATTR = ['href', 'title', 'alt', 'src', 'start', 'align', 'class'];
const SAFE_IMAGE = /^data:image\/(png|gif|jpe?g|webp);base64,[a-z0-9+/=\s]+$/i;
const SAFE_LINK = /^https?:\/\//i;
const SAFE_CLASS = /^language-[\w+#.-]{1,40}$/;

let hooksInstalled = false;

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
    const value = data.attrValue.trim();
    if (data.attrName === 'class') data.keepAttr = node.nodeName === 'CODE' && SAFE_CLASS.test(value);
    if (data.attrName === 'href') data.keepAttr = node.nodeName === 'A' && SAFE_LINK.test(value);
    if (data.attrName === 'src') data.keepAttr = node.nodeName === 'IMG' && SAFE_IMAGE.test(value);
  });
}

/** Sanitized fragment of the markdown. Code blocks get highlighting (unless `plainCode`) and action buttons. */
export function renderMarkdown(text: string, options: { plainCode?: boolean } = {}): DocumentFragment {
  installHooks();
  const html = marked.parse(text) as string;
  const fragment = DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    RETURN_DOM_FRAGMENT: true,
  });
  finishLinksAndImages(fragment);
  for (const pre of Array.from(fragment.querySelectorAll('pre'))) decorateCodeBlock(pre, !!options.plainCode);
  return fragment;
}

function finishLinksAndImages(fragment: DocumentFragment): void {
  for (const a of Array.from(fragment.querySelectorAll('a'))) neutralizeLink(a);
  for (const img of Array.from(fragment.querySelectorAll('img'))) {
    if (img.getAttribute('src')) continue;
    const note = document.createElement('span');
    note.className = 'blocked-image';
    note.textContent = img.alt ? t('chat.imageNotLoadedAlt', img.alt) : t('chat.imageNotLoaded');
    img.replaceWith(note);
  }
}

/**
 * No anchor of model output keeps an href: VS Code's webview host script opens any clicked <a href> itself
 * (ignoring preventDefault, and without the extension's checks). The address moves to data-href, only when the
 * shared link policy accepts it; the click, Enter and middle-click handlers in main.ts ask the host to open it.
 */
export function neutralizeLink(a: HTMLAnchorElement): void {
  const raw = a.getAttribute('href');
  for (const name of a.getAttributeNames()) if (name !== 'class') a.removeAttribute(name);
  const verdict = checkLink(raw, localizer);
  if (verdict.ok) {
    a.dataset.href = raw!;
    a.className = 'link';
    a.setAttribute('role', 'link');
    a.tabIndex = 0;
    // Show where a link really goes (link text can claim anything), in the ASCII form that will open.
    a.title = verdict.display;
  } else {
    a.className = 'link-refused';
    a.title = t('chat.linkRefused', verdict.reason);
  }
}

/** Wraps a <pre> in a block with its language and the Copy / Insert / Open actions. */
export function decorateCodeBlock(pre: HTMLElement, plain: boolean): HTMLElement {
  const code = pre.querySelector('code') ?? pre;
  const language = /language-([\w+#.-]+)/.exec(code.className)?.[1];
  if (!plain) highlightInto(code as HTMLElement, code.textContent ?? '', language);
  const block = document.createElement('div');
  block.className = 'code-block';
  if (language) block.dataset.language = language;
  const bar = document.createElement('div');
  bar.className = 'code-toolbar';
  const label = document.createElement('span');
  label.className = 'code-language';
  label.textContent = language ?? t('chat.plainText');
  bar.append(
    label,
    codeButton('copyCode', 'copy', t('chat.copyCode')),
    codeButton('insertCode', 'insert', t('chat.insertCode')),
    codeButton('openCode', 'go-to-file', t('chat.openCode')),
  );
  pre.replaceWith(block);
  block.append(bar, pre);
  return block;
}

function codeButton(action: string, icon: string, label: string): HTMLButtonElement {
  const button = document.createElement('button');
  button.className = 'icon';
  button.type = 'button';
  button.dataset.action = action;
  button.title = label;
  button.setAttribute('aria-label', label);
  const glyph = document.createElement('span');
  glyph.className = `codicon codicon-${icon}`;
  glyph.setAttribute('aria-hidden', 'true');
  button.append(glyph);
  return button;
}
