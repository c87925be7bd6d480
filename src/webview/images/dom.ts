// Tiny DOM helpers: text only through textContent, never innerHTML (prompts and names are untrusted).

type Child = Node | string | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { className?: string; text?: string; title?: string; attrs?: Record<string, string> } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  if (props.title) node.title = props.title;
  for (const [name, value] of Object.entries(props.attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) if (child) node.append(child);
  return node;
}

export function button(label: string, onClick: () => void, options: { icon?: string; secondary?: boolean; title?: string; action?: string } = {}): HTMLButtonElement {
  const attrs: Record<string, string> = { type: 'button' };
  if (options.action) attrs['data-action'] = options.action;
  const node = el('button', { className: options.secondary ? 'secondary' : '', title: options.title ?? label, attrs },
    options.icon ? el('span', { className: `codicon codicon-${options.icon}`, attrs: { 'aria-hidden': 'true' } }) : undefined,
    el('span', { text: label }));
  node.addEventListener('click', onClick);
  return node;
}

export function select(id: string, options: string[], value: string): HTMLSelectElement {
  const node = el('select', { attrs: { id } });
  setOptions(node, options, value);
  return node;
}

export function setOptions(node: HTMLSelectElement, options: string[], value: string): void {
  node.replaceChildren(...options.map((o) => el('option', { text: o, attrs: { value: o } })));
  if (options.includes(value)) node.value = value;
}

export function labelled(text: string, forId: string, control: HTMLElement): HTMLElement {
  return el('div', { className: 'field' }, el('label', { text, attrs: { for: forId } }), control);
}

/** Only data:image URLs from the host become image sources. */
export function safeImageSrc(value: string | undefined): string | undefined {
  return value && /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=]+$/.test(value) ? value : undefined;
}
