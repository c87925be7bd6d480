// The composer's model picker: the model box stays a text input (any typed id is accepted, as before), and a list
// under it shows the host's chat models with their kind, window and price where known. Typing filters it; a click
// in the box or ArrowDown opens it (every model), ArrowUp/ArrowDown choose, Enter picks, Escape closes (before the
// page-wide Escape). Model ids come from the gateway: untrusted text, written with textContent only.
import type { ModelOption } from '../../shared/protocol/chat';
import { el } from '../common/dom';
import { t } from '../common/strings';

const LIST_ID = 'model-list';
const format = (n: number): string => n.toLocaleString('en-US');
const price = (n: number | undefined): string => (n === undefined ? '?' : String(Math.round(n * 1e4) / 1e4));

/** "chat · images · 200,000 tokens · in 3 · out 15 per 1M tokens": only what is known. */
export function modelDetail(m: ModelOption): string {
  const parts: string[] = [];
  if (m.kind) parts.push(m.kind === 'chat' ? t('chat.modelKindChat') : m.kind);
  if (m.vision) parts.push(t('chat.modelVision'));
  if (m.window !== undefined) parts.push(t('chat.modelWindow', format(m.window)));
  if (m.price) parts.push(t('chat.modelPrice', price(m.price.input), price(m.price.output)));
  return parts.join(' · ');
}

export class ModelPicker {
  readonly element: HTMLUListElement;
  private models: ModelOption[] = [];
  private shown: ModelOption[] = [];
  private active = -1;

  constructor(
    private readonly input: HTMLInputElement,
    private readonly pick: (id: string) => void,
  ) {
    this.element = el('ul', {
      className: 'model-list',
      attrs: { role: 'listbox', id: LIST_ID, 'aria-label': t('chat.modelList') },
    });
    this.element.hidden = true;
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', LIST_ID);
    input.setAttribute('aria-expanded', 'false');
    // mousedown, not click: the input keeps its focus while an entry is chosen with the mouse.
    this.element.addEventListener('mousedown', (event) => {
      const item = (event.target as Element).closest<HTMLElement>('[data-index]');
      event.preventDefault();
      if (item) this.choose(Number(item.dataset.index));
    });
    input.addEventListener('input', () => this.open(this.input.value.trim()));
    // A click in the box opens the whole list, as a select would (the box holds the current model, not a filter).
    input.addEventListener('click', () => {
      if (!this.isOpen) this.open('');
    });
    input.addEventListener('blur', () => this.close());
    input.addEventListener('keydown', (event) => this.onKey(event));
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  setModels(models: ModelOption[]): void {
    this.models = models;
    if (this.isOpen) this.open(this.input.value.trim());
  }

  private onKey(event: KeyboardEvent): void {
    if (event.isComposing) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!this.isOpen) return this.open('');
      const n = this.shown.length;
      if (n) this.select((Math.max(0, this.active) + (event.key === 'ArrowDown' ? 1 : n - 1)) % n);
      return;
    }
    if (!this.isOpen) return;
    if (event.key === 'Enter' && this.active >= 0) {
      event.preventDefault();
      this.choose(this.active);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      this.close();
    } else if (event.key === 'Tab') this.close();
  }

  /** Shows the models whose id holds `query` (all of them for an empty query). */
  private open(query: string): void {
    const q = query.toLowerCase();
    this.shown = this.models.filter((m) => m.id.toLowerCase().includes(q));
    if (!this.shown.length) return this.close();
    this.element.replaceChildren(
      ...this.shown.map((m, i) =>
        el(
          'li',
          { className: 'model-option', attrs: { role: 'option', id: `model-option-${i}`, 'data-index': String(i) } },
          el('span', { className: 'model-name', text: m.id }),
          el('span', { className: 'model-detail', text: modelDetail(m) }),
        ),
      ),
    );
    this.element.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    this.select(
      Math.max(
        0,
        this.shown.findIndex((m) => m.id === this.input.value.trim()),
      ),
    );
  }

  private select(index: number): void {
    this.active = index;
    for (const [i, item] of [...this.element.children].entries())
      item.setAttribute('aria-selected', String(i === index));
    this.element.children[index]?.scrollIntoView({ block: 'nearest' });
    this.input.setAttribute('aria-activedescendant', `model-option-${index}`);
  }

  private choose(index: number): void {
    const model = this.shown[index];
    this.close();
    if (!model) return;
    this.input.value = model.id;
    this.pick(model.id);
  }

  close(): void {
    this.element.hidden = true;
    this.active = -1;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }
}
