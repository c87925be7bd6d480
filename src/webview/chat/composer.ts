// The input area: attachments, the question, Send / Stop, and the conversation's settings.
import type {
  AgentAvailability,
  ChatAttachment,
  ChatMode,
  ConversationSettings,
  MentionOption,
  ModelOption,
} from '../../shared/protocol/chat';
import { channel, post, showNotice } from './api';
import { RequestError } from '../common/channel';
import { IMAGE_LIMITS, imageTokens, imageTypeOfName } from '../../shared/imageFormat';
import { fromBase64, imageFiles, prepareImage } from './imageInput';
import { el, iconButton } from '../common/dom';
import { t } from '../common/strings';
import { attachmentChips, imagePreviewChip, paintPreviewThumbnail } from './chips';
import { MentionPopup } from './mentionPopup';
import { insertMention } from './mentionText';
import { ContextMeter } from './contextMeterView';
import { ApprovalLine } from './approvalLine';
import { ModelPicker } from './modelPicker';
import { ReasoningControl } from './reasoningControl';

export class Composer {
  readonly element: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private readonly chips: HTMLElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly model: HTMLInputElement;
  /** The list of the gateway's chat models under the model box (kind, window, price); typed ids still go. */
  private readonly picker: ModelPicker;
  /** The model last set or sent, so a pick followed by the box's change event is sent once. */
  private modelSent = '';
  private readonly maxTokens: HTMLInputElement;
  private readonly systemPrompt: HTMLTextAreaElement;
  private readonly warning: HTMLElement;
  /** Ask / Agent for this conversation (a native select: keyboard and screen readers work as everywhere). */
  readonly mode: HTMLSelectElement;
  private readonly modeNote: HTMLElement;
  private availability: AgentAvailability = { ok: true };
  private currentMode: ChatMode = 'ask';
  private busy = false;
  private attachments: ChatAttachment[] = [];
  private models: ModelOption[] = [];
  /** Send was pressed once with images for a model believed blind: the next press sends anyway. */
  private blindAsked = false;
  /** Images still being encoded or handed to the host, and the chips shown for them meanwhile (by name and size). */
  private readonly preparing = new Set<Promise<void>>();
  private readonly previews = new Map<HTMLElement, { name: string; width: number; height: number }>();
  /** Send was pressed while images were being prepared: it sends once they are attached. */
  private sendQueued = false;
  /** The @-mention list (files, folders, problems, terminal, changes, selection). */
  readonly mentions: MentionPopup;

  constructor(private readonly onDraft: (text: string) => void) {
    this.chips = el('div', { className: 'chips', attrs: { 'aria-label': t('chat.attachments') } });
    this.input = el('textarea', {
      className: 'input',
      attrs: { rows: '3', 'aria-label': t('chat.inputLabel'), placeholder: t('chat.inputPlaceholder') },
    });
    this.mentions = new MentionPopup(this.input, (option, at) => this.attachMention(option, at));
    this.sendButton = iconButton('send', t('chat.send'), 'send');
    this.stopButton = iconButton('debug-stop', t('chat.stop'), 'stop');
    this.stopButton.hidden = true;
    this.model = el('input', {
      className: 'model',
      attrs: {
        'aria-label': t('chat.model'),
        spellcheck: 'false',
        placeholder: t('chat.modelPlaceholder'),
      },
    });
    this.picker = new ModelPicker(this.model, (id) => this.sendModel(id));
    this.maxTokens = el('input', {
      className: 'max-tokens',
      attrs: {
        type: 'number',
        min: '1',
        max: '1000000',
        'aria-label': t('chat.maxTokens'),
        title: t('chat.maxTokens'),
      },
    });
    this.systemPrompt = el('textarea', {
      className: 'system-prompt',
      attrs: { rows: '3', 'aria-label': t('chat.systemPromptLabel'), placeholder: t('chat.systemPromptLabel') },
    });
    this.warning = el('div', { className: 'warning', attrs: { role: 'status' } });
    this.mode = el(
      'select',
      { className: 'mode', attrs: { 'aria-label': t('chat.modeLabel'), title: t('chat.mode') } },
      el('option', { text: t('chat.modeAsk'), attrs: { value: 'ask' } }),
      el('option', { text: t('chat.modeAgent'), attrs: { value: 'agent' } }),
      el('option', { text: t('chat.modePlan'), attrs: { value: 'plan' } }),
    );
    this.modeNote = el('div', { className: 'mode-note', attrs: { role: 'status' } });
    const settings = el(
      'details',
      { className: 'settings' },
      el('summary', { text: t('chat.systemPrompt') }),
      this.systemPrompt,
    );
    const toolbar = el(
      'div',
      { className: 'toolbar' },
      this.mode,
      el(
        'label',
        { className: 'field' },
        el('span', { className: 'codicon codicon-sparkle', attrs: { 'aria-hidden': 'true' } }),
        this.model,
      ),
      this.reasoning.element,
      el(
        'label',
        { className: 'field' },
        el('span', { text: t('chat.maxShort'), attrs: { 'aria-hidden': 'true' } }),
        this.maxTokens,
      ),
      el('span', { className: 'spacer' }),
      this.stopButton,
      this.sendButton,
    );
    this.element = el(
      'div',
      { className: 'composer' },
      this.mentions.element,
      this.chips,
      this.input,
      toolbar,
      this.modeNote,
      this.approvals.element,
      this.picker.element,
      this.warning,
      this.meter.element,
      settings,
    );
    this.wire();
  }

  /** The context meter (how much of the model's window the conversation uses; Condense near the threshold). */
  readonly meter = new ContextMeter();
  /** What the agent runs without asking (Agent and Plan mode; a click opens the settings). */
  readonly approvals = new ApprovalLine();
  /** Reasoning effort for the conversation's model, when it is believed to reason (the user's own setting). */
  private readonly reasoning = new ReasoningControl();

  get text(): string {
    return this.input.value;
  }

  setText(text: string): void {
    this.input.value = text;
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.stopButton.hidden = !busy;
    this.sendButton.hidden = busy;
    this.element.classList.toggle('busy', busy);
  }

  setMode(mode: ChatMode): void {
    this.currentMode = mode;
    this.mode.value = mode;
    this.element.dataset.mode = mode;
    this.approvals.setMode(mode);
    this.input.placeholder =
      mode === 'agent'
        ? t('chat.agentPlaceholder')
        : mode === 'plan'
          ? t('chat.planPlaceholder')
          : t('chat.inputPlaceholder');
    this.renderModeNote();
  }

  /** Agent and Plan modes need a trusted workspace: their options are disabled there and the note says why. */
  setAgentAvailability(availability: AgentAvailability): void {
    this.availability = availability;
    for (const mode of ['agent', 'plan'] as const) {
      const option = this.mode.querySelector<HTMLOptionElement>(`option[value="${mode}"]`);
      if (option) option.disabled = !availability.ok && this.currentMode !== mode;
    }
    this.renderModeNote();
  }

  private renderModeNote(): void {
    this.modeNote.textContent = this.availability.ok ? '' : this.availability.reason;
  }

  setAttachments(attachments: ChatAttachment[]): void {
    this.attachments = attachments;
    // A preview gives way to the host's chip of the same image.
    for (const [chip, p] of this.previews)
      if (attachments.some((a) => a.path === p.name && a.image?.width === p.width && a.image.height === p.height))
        this.previews.delete(chip);
    this.chips.replaceChildren(...attachmentChips(attachments, true), ...this.previews.keys());
    this.chips.hidden = this.chips.childElementCount === 0;
  }

  setModels(models: ModelOption[], problem: string | undefined): void {
    this.models = models;
    this.picker.setModels(models);
    this.reasoning.show(models, this.modelSent);
    this.warning.textContent = problem ?? '';
  }

  setSettings(settings: ConversationSettings, warning?: string): void {
    this.modelSent = settings.model;
    if (document.activeElement !== this.model) this.model.value = settings.model;
    if (document.activeElement !== this.maxTokens) this.maxTokens.value = String(settings.maxTokens);
    if (document.activeElement !== this.systemPrompt) this.systemPrompt.value = settings.systemPrompt;
    this.warning.textContent = warning ?? '';
    this.reasoning.show(this.models, settings.model);
  }

  private sendModel(model: string): void {
    if (model === this.modelSent) return;
    this.modelSent = model;
    this.reasoning.show(this.models, model);
    post({ type: 'setModel', model });
  }

  /** Sends the draft unless busy (Esc stops first); returns whether it sent. */
  send(): boolean {
    if (this.busy) return false;
    if (this.preparing.size > 0) {
      if (!this.sendQueued) {
        this.sendQueued = true;
        void Promise.allSettled([...this.preparing]).then(() => {
          this.sendQueued = false;
          this.send();
        });
      }
      return false;
    }
    const text = this.input.value;
    if (!text.trim() && this.chips.childElementCount === 0) return false;
    if (this.asksBeforeImages()) return false;
    post({ type: 'send', text });
    this.input.value = '';
    this.onDraft('');
    return true;
  }

  /** Images for a model the list, the setting or its name calls blind: say so once; the second Send sends. */
  private asksBeforeImages(): boolean {
    const model = this.model.value.trim();
    const blind = this.models.find((m) => m.id === model)?.vision === false;
    if (!blind || !this.attachments.some((a) => a.kind === 'image') || this.blindAsked) {
      this.blindAsked = false;
      return false;
    }
    this.blindAsked = true;
    showNotice(t('chat.imageBlind', model));
    return true;
  }

  /** Pasted or dropped image files: each scaled here and handed to the host, which checks, stores and chips it. */
  async attachImageFiles(files: File[]): Promise<void> {
    for (const file of files) await this.attachImage(file, file.name || t('chat.pastedImage'));
  }

  private async attachImage(blob: Blob, name: string): Promise<void> {
    if (this.attachments.filter((a) => a.kind === 'image').length >= IMAGE_LIMITS.maxPerRequest)
      return showNotice(t('chat.imageTooMany', IMAGE_LIMITS.maxPerRequest));
    let preview: HTMLElement | undefined;
    const work = (async () => {
      const prepared = await prepareImage(blob, name, undefined, {
        sized: (p) => {
          preview = imagePreviewChip(name, p, imageTokens(p.width, p.height));
          this.previews.set(preview, { name, width: p.width, height: p.height });
          this.chips.append(preview);
          this.chips.hidden = false;
        },
        decoded: (thumbnail) => preview && paintPreviewThumbnail(preview, thumbnail),
      });
      if (!prepared.ok)
        return showNotice(t(prepared.reason === 'tooLarge' ? 'chat.imageTooLarge' : 'chat.imageUnreadable', name));
      await channel.request('addImage', prepared.params).catch((error: unknown) => {
        if (error instanceof RequestError && error.message) showNotice(error.message);
      });
    })();
    this.preparing.add(work);
    try {
      await work;
    } finally {
      this.preparing.delete(work);
      if (preview && this.previews.delete(preview)) {
        preview.remove();
        this.chips.hidden = this.chips.childElementCount === 0;
      }
    }
  }

  /** An image the host read for Ask about This Image: scaled here like any other. */
  async attachImageData(name: string, mediaType: string, data: string): Promise<void> {
    await this.attachImage(new Blob([fromBase64(data)], { type: mediaType }), name);
  }

  /** A workspace image (@ or a drop from the Explorer): the host reads it under the @file rules, the page scales it. */
  private async attachWorkspaceImage(path: string): Promise<void> {
    try {
      const read = await channel.request('readImage', { path });
      await this.attachImage(new Blob([fromBase64(read.data)], { type: read.mediaType }), read.name);
    } catch (error) {
      if (error instanceof Error && error.message) showNotice(error.message);
    }
  }

  /**
   * A picked @-mention: the typed `@query` becomes the entry's reference (the sentence keeps its words: "Check
   * @problems and @changes"), the host resolves the entry and sends the new chips (or a refusal).
   */
  private attachMention(option: MentionOption, at: { start: number; end: number }): void {
    const next = insertMention(this.input.value, at, option);
    this.input.value = next.value;
    this.input.setSelectionRange(next.caret, next.caret);
    this.onDraft(this.input.value);
    if (option.image && option.path !== undefined) return void this.attachWorkspaceImage(option.path);
    post({ type: 'addMention', kind: option.kind, ...(option.path !== undefined ? { path: option.path } : {}) });
  }

  private wire(): void {
    this.input.addEventListener('keydown', (event) => {
      if (this.mentions.keydown(event)) return;
      // Backspace in an empty input removes the last chip (as in a tag field).
      if (event.key === 'Backspace' && this.input.value === '' && this.attachments.length > 0 && !event.repeat) {
        event.preventDefault();
        post({ type: 'removeAttachment', attachmentId: this.attachments[this.attachments.length - 1].id });
        return;
      }
      if (
        event.key === 'Enter' &&
        !event.shiftKey &&
        !event.isComposing &&
        !event.altKey &&
        !event.ctrlKey &&
        !event.metaKey
      ) {
        event.preventDefault();
        this.send();
      }
    });
    this.input.addEventListener('paste', (event) => {
      const files = imageFiles(event.clipboardData?.files ?? []);
      if (files.length === 0) return;
      event.preventDefault();
      void this.attachImageFiles(files);
    });
    this.element.addEventListener('dragover', (event) => {
      const types = event.dataTransfer?.types ?? [];
      if (types.includes('Files') || types.includes('text/uri-list')) event.preventDefault();
    });
    this.element.addEventListener('drop', (event) => {
      const files = imageFiles(event.dataTransfer?.files ?? []);
      const uris = (event.dataTransfer?.getData('text/uri-list') ?? '').split(/\r?\n/).filter((u) => /^file:/.test(u));
      const images = uris.filter((u) => imageTypeOfName(u));
      if (files.length === 0 && images.length === 0) return;
      event.preventDefault();
      if (files.length > 0) void this.attachImageFiles(files);
      else for (const uri of images) void this.attachWorkspaceImage(decodeURIComponent(new URL(uri).pathname));
    });
    this.input.addEventListener('input', () => {
      this.onDraft(this.input.value);
      this.mentions.update();
    });
    // A caret moved by keys or a click can enter or leave an `@query`.
    this.input.addEventListener('keyup', (event) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) this.mentions.update();
    });
    this.input.addEventListener('click', () => this.mentions.update());
    this.model.addEventListener('change', () => this.sendModel(this.model.value.trim()));
    this.maxTokens.addEventListener('change', () => {
      const value = Math.floor(Number(this.maxTokens.value));
      if (Number.isInteger(value) && value >= 1 && value <= 1_000_000) post({ type: 'setMaxTokens', maxTokens: value });
    });
    this.systemPrompt.addEventListener('change', () =>
      post({ type: 'setSystemPrompt', systemPrompt: this.systemPrompt.value }),
    );
    this.mode.addEventListener('change', () => {
      const mode: ChatMode = this.mode.value === 'agent' || this.mode.value === 'plan' ? this.mode.value : 'ask';
      // The host confirms with a 'mode' message (or refuses and says why); until then show the current mode.
      this.mode.value = this.currentMode;
      post({ type: 'setMode', mode });
    });
  }
}
