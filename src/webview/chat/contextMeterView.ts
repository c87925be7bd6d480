// The composer's context meter: how much of the model's input window the conversation's next request uses (the
// host's estimate, the one the condenser decides with), a bar, and near the condense threshold a warning with
// Condense one click away. Past the threshold the next question condenses by itself; the meter says so.
import { button, el } from '../common/dom';
import { joinSentences, t } from '../common/strings';
import { RequestError } from '../common/channel';
import { channel, showNotice } from './api';

/** The questions (with their answers) condensing always keeps whole: CONDENSE_KEEP_TURNS of src/chat/condense/condense.ts. */
const KEPT_WHOLE = 2;

/** From this share of the threshold on, the meter warns and offers Condense. */
export const WARN_AT = 0.85;

export interface ContextFigures {
  used: number;
  /** The model's context window as the meter names it (it does not move with max tokens). */
  window: number;
  /** Tokens past which the next question condenses older turns first. */
  condenseAt: number;
  /** There are older turns to condense (the last two questions and their answers are always kept whole). */
  condensable: boolean;
}

export class ContextMeter {
  readonly element: HTMLElement;
  private readonly bar: HTMLElement;
  private readonly label: HTMLElement;
  private readonly condense: HTMLButtonElement;

  constructor() {
    this.bar = el('div', { className: 'context-fill' });
    this.label = el('span', { className: 'context-label' });
    this.condense = button(t('chat.contextCondense'), () => this.condenseNow(), { secondary: true });
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
    // Near the threshold with nothing older than the turns kept whole: condensing cannot help, and the meter says so
    // rather than offer a Condense that would do nothing.
    const note = !near
      ? ''
      : f.condensable
        ? t('chat.contextNear', Math.round((f.condenseAt / f.window) * 100))
        : t('chat.contextNothingToCondense', KEPT_WHOLE);
    this.show(joinSentences(figures, note));
    this.condense.hidden = !near || !f.condensable;
  }

  private show(text: string): void {
    this.label.textContent = text;
    this.element.setAttribute('aria-valuetext', text);
  }

  /** Condense now; a refusal (nothing to condense, a reply in progress) is said here and above the composer. */
  private condenseNow(): void {
    channel.request('condense', {}).catch((error: unknown) => {
      if (!(error instanceof RequestError) || !error.message) return;
      this.show(error.message);
      this.condense.hidden = true;
      showNotice(error.message);
    });
  }
}
