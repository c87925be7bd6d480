// DOM helpers of both webviews (no framework: the views are small and must stay fast). Text only through
// textContent, never innerHTML: prompts, names and model output are untrusted.

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

/** A codicon (decorative: hidden from screen readers, the button's label says it). */
export function codicon(name: string): HTMLElement {
  return el('span', { className: `codicon codicon-${name}`, attrs: { 'aria-hidden': 'true' } });
}

/** An icon-only button: its label is the tooltip and the accessible name; clicks are routed by data-action. */
export function iconButton(
  icon: string,
  label: string,
  action: string,
  extra: Record<string, string> = {},
): HTMLButtonElement {
  const node = el('button', {
    className: 'icon',
    attrs: { type: 'button', title: label, 'aria-label': label, 'data-action': action, ...extra },
  });
  node.append(codicon(icon));
  return node;
}

/** A text button routed by data-action. */
export function textButton(
  label: string,
  action: string,
  extra: Record<string, string> = {},
  secondary = true,
): HTMLButtonElement {
  return el('button', {
    className: secondary ? 'secondary' : '',
    text: label,
    attrs: { type: 'button', 'data-action': action, ...extra },
  });
}

/** A button with its own click handler, an optional icon before the label. */
export function button(
  label: string,
  onClick: () => void,
  options: { icon?: string; secondary?: boolean; title?: string; action?: string } = {},
): HTMLButtonElement {
  const attrs: Record<string, string> = { type: 'button' };
  if (options.action) attrs['data-action'] = options.action;
  const node = el(
    'button',
    { className: options.secondary ? 'secondary' : '', title: options.title ?? label, attrs },
    options.icon ? codicon(options.icon) : undefined,
    el('span', { text: label }),
  );
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
