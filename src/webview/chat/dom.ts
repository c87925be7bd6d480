// Tiny DOM helpers (no framework: the view is small and must stay fast).
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { className?: string; text?: string; attrs?: Record<string, string> } = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

export function iconButton(icon: string, label: string, action: string, extra: Record<string, string> = {}): HTMLButtonElement {
  const button = el('button', { className: 'icon', attrs: { type: 'button', title: label, 'aria-label': label, 'data-action': action, ...extra } });
  button.append(el('span', { className: `codicon codicon-${icon}`, attrs: { 'aria-hidden': 'true' } }));
  return button;
}

export function textButton(label: string, action: string, extra: Record<string, string> = {}, secondary = true): HTMLButtonElement {
  return el('button', { className: secondary ? 'secondary' : '', text: label, attrs: { type: 'button', 'data-action': action, ...extra } });
}
