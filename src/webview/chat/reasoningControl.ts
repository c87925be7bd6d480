// The composer's Reasoning choice (default / off / low / medium / high), shown only for a model believed to reason
// (ModelOption.reasons: the model list where it says, else the id; src/catalog/reasoning.ts). A choice asks the host
// to write the user's own modelGateway.models.reasoning[model] (user settings only; default removes the entry).
import { REASONING_CHOICES, type ModelOption, type ReasoningChoice } from '../../shared/protocol/chat';
import { el } from '../common/dom';
import { t, type WebviewStringKey } from '../common/strings';
import { post } from './api';

const LABELS: Record<ReasoningChoice, WebviewStringKey> = {
  default: 'chat.reasoningDefault',
  off: 'chat.reasoningOff',
  low: 'chat.reasoningLow',
  medium: 'chat.reasoningMedium',
  high: 'chat.reasoningHigh',
};

export class ReasoningControl {
  readonly element: HTMLLabelElement;
  private readonly select: HTMLSelectElement;
  /** The model the control speaks for (the conversation's model, when it is believed to reason). */
  private option: ModelOption | undefined;

  constructor() {
    this.select = el(
      'select',
      { className: 'reasoning', attrs: { 'aria-label': t('chat.reasoningTitle'), title: t('chat.reasoningTitle') } },
      ...REASONING_CHOICES.map((choice) => el('option', { text: t(LABELS[choice]), attrs: { value: choice } })),
    );
    this.element = el(
      'label',
      { className: 'field reasoning-field' },
      el('span', { text: t('chat.reasoning'), attrs: { 'aria-hidden': 'true' } }),
      this.select,
    );
    this.select.addEventListener('change', () => this.choose());
    this.element.hidden = true;
  }

  /** Shows the control for the model when the list (or the guess) says it reasons, with the user's choice. */
  show(models: readonly ModelOption[], modelId: string): void {
    const option = models.find((m) => m.id === modelId);
    this.option = option?.reasons ? option : undefined;
    this.element.hidden = !this.option;
    if (this.option && document.activeElement !== this.select) this.select.value = this.option.reasoning ?? 'default';
  }

  private choose(): void {
    const option = this.option;
    const level = this.select.value as ReasoningChoice;
    if (!option || !REASONING_CHOICES.includes(level)) return;
    // Shown at once; the host's next model list carries the value as stored.
    if (level === 'default') delete option.reasoning;
    else option.reasoning = level;
    post({ type: 'setReasoning', model: option.id, level });
  }
}
