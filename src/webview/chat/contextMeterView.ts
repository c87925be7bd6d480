// The composer's context meter: how much of the model's input window the conversation's next request uses (the
// host's estimate, the one the condenser decides with), a bar, and near the condense threshold a warning with
// Condense one click away. Past the threshold the next question condenses by itself; the meter says so.
import { button, el } from '../common/dom';
import { joinSentences, t } from '../common/strings';
import { post } from './api';

/** From this share of the threshold on, the meter warns and offers Condense. */
export const WARN_AT = 0.85;

export interface ContextFigures {
  used: number;
  /** The model's context window as the meter names it (it does not move with max tokens). */
  window: number;
  /** Tokens past which the next question condenses older turns first. */
  condenseAt: number;
}

export class ContextMeter {
  readonly element: HTMLElement;
  private readonly bar: HTMLElement;
  private readonly label: HTMLElement;
  private readonly condense: HTMLButtonElement;

  constructor() {
    this.bar = el('div', { className: 'context-fill' });
    this.label = el('span', { className: 'context-label' });
    this.condense = button(t('chat.contextCondense'), () => post({ type: 'condense' }), { secondary: true });
    this.condense.classList.add('context-condense');
    this.condense.hidden = true;
    this.element = el(
      'div',
      { className: 'context-meter', attrs: { role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': '100' } },
      el('div', { className: 'context-bar' }, this.bar),
      this.label,
      this.condense,
    );
    this.element.hidden = true;
  }

  set(f: ContextFigures): void {
    const share = f.used / f.window;
    const percent = Math.min(100, Math.round(share * 100));
    const near = f.used >= f.condenseAt * WARN_AT;
    this.element.hidden = f.used === 0;
    this.element.classList.toggle('warn', near);
    this.element.setAttribute('aria-valuenow', String(percent));
    this.bar.style.width = `${percent}%`;
    const figures = t('chat.contextUse', percent, f.used.toLocaleString('en-US'), f.window.toLocaleString('en-US'));
    const note = near ? t('chat.contextNear', Math.round((f.condenseAt / f.window) * 100)) : '';
    this.label.textContent = joinSentences(figures, note);
    this.element.setAttribute('aria-valuetext', joinSentences(figures, note));
    this.condense.hidden = !near;
  }
}
