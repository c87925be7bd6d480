// Renders a streaming answer incrementally: finished blocks are rendered once and kept; only the
// unfinished tail is re-rendered per frame, and an open code fence just grows its text node.
import { newScanState, scan, type ScanState } from './blockScanner';
import { decorateCodeBlock, renderMarkdown } from './markdown';

export class StreamingBody {
  readonly element: HTMLElement;
  private readonly done: HTMLElement;
  private readonly tail: HTMLElement;
  private text = '';
  private rendered = 0;
  private state: ScanState = newScanState();
  private openFence: { start: number; code: Text; length: number } | undefined;

  constructor(
    element: HTMLElement,
    private readonly onFinishedBlock?: (text: string) => void,
  ) {
    this.element = element;
    this.done = document.createElement('div');
    this.tail = document.createElement('div');
    this.done.className = 'blocks';
    this.tail.className = 'blocks tail';
    element.replaceChildren(this.done, this.tail);
  }

  get value(): string {
    return this.text;
  }

  append(delta: string): void {
    this.text += delta;
  }

  /** Brings the DOM up to date with the text (call once per animation frame). */
  render(): void {
    scan(this.state, this.text);
    if (this.state.stable > this.rendered) {
      const finished = this.text.slice(this.rendered, this.state.stable);
      this.done.append(renderMarkdown(finished));
      this.rendered = this.state.stable;
      this.openFence = undefined;
      this.onFinishedBlock?.(finished);
    }
    const fence = this.state.fence;
    if (fence && fence.start >= this.rendered) this.renderOpenFence(fence.start, fence.infoEnd);
    else this.renderTail();
  }

  private renderTail(): void {
    this.openFence = undefined;
    const tail = this.text.slice(this.rendered);
    this.tail.replaceChildren(tail.trim() ? renderMarkdown(tail, { plainCode: true }) : '');
  }

  /** While a fence is open, its text is plain and only appended (a megabyte of code costs per delta, not per frame). */
  private renderOpenFence(start: number, infoEnd: number): void {
    if (!this.openFence || this.openFence.start !== start) {
      const head = this.text.slice(this.rendered, start);
      const pre = document.createElement('pre');
      const code = document.createElement('code');
      const info = this.text
        .slice(start, infoEnd)
        .trim()
        .replace(/^[`~]+/, '')
        .trim()
        .split(/\s+/)[0];
      if (info && /^[\w+#.-]{1,40}$/.test(info)) code.className = `language-${info}`;
      const node = document.createTextNode('');
      code.append(node);
      pre.append(code);
      const fragment = head.trim() ? renderMarkdown(head) : document.createDocumentFragment();
      fragment.append(pre);
      this.tail.replaceChildren(fragment);
      decorateCodeBlock(pre, true);
      this.openFence = { start, code: node, length: 0 };
    }
    const body = this.text.slice(infoEnd);
    if (body.length > this.openFence.length) {
      this.openFence.code.appendData(body.slice(this.openFence.length));
      this.openFence.length = body.length;
    }
  }
}
