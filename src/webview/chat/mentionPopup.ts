// The @-mention list of the composer: `@` at the start or after a space opens it, typing filters it (the host ranks,
// asked at most every DEBOUNCE_MS), ArrowUp/ArrowDown choose, Enter or Tab attaches, Escape closes. The input stays
// focused (aria-activedescendant names the chosen entry), so typing goes on as usual. The list holds names and
// sizes only: the host reads a file once it is picked.
import type { MentionOption } from '../../shared/protocol/chat';
import { codicon, el } from '../common/dom';
import { t } from '../common/strings';
import { channel } from './api';
import { KIND_ICONS, KIND_NAMES, tokenCount } from './chips';

export const DEBOUNCE_MS = 120;
const QUERY = /(?:^|\s)@([^\s@]{0,200})$/;

export class MentionPopup {
  readonly element: HTMLUListElement;
  private options: MentionOption[] = [];
  private active = 0;
  /** Where the `@` of the open query is in the input, and what follows it. */
  private at: { start: number; query: string } | undefined;
  /** The `@` the user closed the list for with Escape: it stays closed until another `@`. */
  private dismissed: number | undefined;
  private timer: number | undefined;
  private searches = 0;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly pick: (option: MentionOption, at: { start: number; end: number }) => void,
  ) {
    this.element = el('ul', {
      className: 'mention-list',
      attrs: { role: 'listbox', id: 'mention-list', 'aria-label': t('chat.mentionList') },
    });
    this.element.hidden = true;
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', 'mention-list');
    input.setAttribute('aria-expanded', 'false');
    // mousedown, not click: the input keeps its focus (and its caret) while an entry is chosen with the mouse.
    this.element.addEventListener('mousedown', (event) => {
      const item = (event.target as Element).closest<HTMLElement>('[data-index]');
      event.preventDefault();
      if (item) this.choose(Number(item.dataset.index));
    });
    input.addEventListener('blur', () => this.close());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** After each edit or caret move: opens, refilters or closes the list for the `@query` before the caret. */
  update(): void {
    const caret = this.input.selectionStart ?? this.input.value.length;
    if (caret !== (this.input.selectionEnd ?? caret)) return this.close();
    const match = QUERY.exec(this.input.value.slice(0, caret));
    if (!match) {
      this.dismissed = undefined;
      return this.close();
    }
    const start = caret - match[1].length - 1;
    if (start === this.dismissed) return;
    const changed = !this.at || this.at.start !== start || this.at.query !== match[1];
    this.at = { start, query: match[1] };
    if (!this.isOpen) {
      this.options = [];
      this.render(t('chat.mentionSearching'));
      this.show(true);
    }
    if (changed) this.schedule(match[1]);
  }

  /** Keys while the list is open; true when the key was the list's (the composer then does nothing else). */
  keydown(event: KeyboardEvent): boolean {
    if (!this.isOpen || event.isComposing) return false;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        if (this.options.length) {
          const step = event.key === 'ArrowDown' ? 1 : -1;
          this.active = (this.active + step + this.options.length) % this.options.length;
          this.highlight();
        }
        event.preventDefault();
        return true;
      case 'Enter':
      case 'Tab':
        if (event.shiftKey || !this.options.length) return false;
        event.preventDefault();
        this.choose(this.active);
        return true;
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        this.dismissed = this.at?.start;
        this.close();
        return true;
      default:
        return false;
    }
  }

  close(): void {
    window.clearTimeout(this.timer);
    this.searches++;
    this.at = undefined;
    this.options = [];
    this.show(false);
  }

  private show(open: boolean): void {
    this.element.hidden = !open;
    this.input.setAttribute('aria-expanded', String(open));
    if (!open) this.input.removeAttribute('aria-activedescendant');
  }

  private schedule(query: string): void {
    window.clearTimeout(this.timer);
    const search = ++this.searches;
    this.timer = window.setTimeout(() => {
      channel.request('mentionSearch', { query }).then(
        (options) => {
          if (search !== this.searches || !this.isOpen) return;
          this.options = options;
          this.active = 0;
          this.render(t('chat.mentionNone'));
        },
        () => undefined,
      );
    }, DEBOUNCE_MS);
  }

  private choose(index: number): void {
    const option = this.options[index];
    const at = this.at;
    if (!option || !at) return;
    this.close();
    this.pick(option, { start: at.start, end: at.start + 1 + at.query.length });
  }

  private render(empty: string): void {
    if (this.options.length === 0) {
      this.element.replaceChildren(
        el('li', { className: 'mention-empty', text: empty, attrs: { role: 'presentation' } }),
      );
      this.input.removeAttribute('aria-activedescendant');
      return;
    }
    this.element.replaceChildren(...this.options.map((o, i) => this.item(o, i)));
    this.highlight();
  }

  private item(option: MentionOption, index: number): HTMLElement {
    const path = option.path ?? '';
    const base = path.split('/').pop() ?? path;
    const label = option.kind === 'file' ? base : option.kind === 'folder' ? `${base}/` : t(KIND_NAMES[option.kind]);
    return el(
      'li',
      {
        className: `mention-option kind-${option.kind}${option.unavailable ? ' unavailable' : ''}`,
        attrs: {
          role: 'option',
          id: `mention-option-${index}`,
          'data-index': String(index),
          'data-kind': option.kind,
          'aria-selected': 'false',
          title: [path, option.detail].filter(Boolean).join('\n'),
        },
      },
      codicon(option.unavailable && path ? 'lock' : KIND_ICONS[option.kind]),
      el('span', { className: 'mention-label', text: label }),
      el('span', { className: 'mention-detail', text: option.detail ?? '' }),
      option.tokens !== undefined && el('span', { className: 'mention-tokens', text: tokenCount(option.tokens) }),
    );
  }

  private highlight(): void {
    const items = Array.from(this.element.querySelectorAll<HTMLElement>('[role="option"]'));
    items.forEach((item, i) => item.setAttribute('aria-selected', String(i === this.active)));
    const current = items[this.active];
    if (current) {
      this.input.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    }
  }
}
