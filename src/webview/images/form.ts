// The request form: mode, edit inputs, prompt, model, size, quality, count, reference images, and a
// hint of what makes the request costlier (words only; the host asks for confirmation).
import type { ImageForm, InputSlot, PickedFile } from '../../shared/protocol/images';
import { costFactors, qualitiesFor } from '../../shared/imageCost';
import { button, el, labelled, safeImageSrc, select, setOptions } from '../common/dom';
import { localizer, t } from '../common/strings';

export interface FormCallbacks {
  submit(form: ImageForm): void;
  pick(slot: InputSlot): void;
  refreshModels(): void;
  changed(form: ImageForm): void;
}

export class FormView {
  readonly element: HTMLElement;
  private mode: ImageForm['mode'] = 'generate';
  private source?: PickedFile;
  private mask?: PickedFile;
  private references: PickedFile[] = [];
  private defaultSize = '1024x1024';
  private readonly prompt = el('textarea', {
    attrs: { id: 'prompt', rows: '3', placeholder: t('images.promptPlaceholder'), 'aria-label': t('images.prompt') },
  });
  private readonly model = select('model', [], '');
  private readonly size = select('size', [], '');
  private readonly quality = select('quality', [], '');
  private readonly count = el('input', { attrs: { id: 'count', type: 'number', min: '1', max: '10', value: '1' } });
  private readonly modelsNotice = el('div', { className: 'notice', attrs: { id: 'models-notice', role: 'status' } });
  private readonly costHint = el('div', { className: 'cost-hint', attrs: { id: 'cost-hint', 'aria-live': 'polite' } });
  private readonly editInputs = el('div', { className: 'edit-inputs', attrs: { id: 'edit-inputs' } });
  private readonly referenceList = el('div', { className: 'references', attrs: { id: 'references' } });
  private readonly modeButtons: Record<ImageForm['mode'], HTMLButtonElement>;
  readonly submitButton: HTMLButtonElement;

  constructor(private readonly callbacks: FormCallbacks) {
    this.modeButtons = {
      // "Create", not "Generate": the one Generate is the submit button.
      generate: button(t('images.modeCreate'), () => this.setMode('generate'), {
        icon: 'sparkle',
        action: 'mode-generate',
      }),
      edit: button(t('images.edit'), () => this.setMode('edit'), { icon: 'edit', action: 'mode-edit' }),
    };
    this.submitButton = button(t('images.generate'), () => this.callbacks.submit(this.value()), {
      icon: 'play',
      action: 'submit',
    });
    const refresh = button('', () => this.callbacks.refreshModels(), {
      icon: 'refresh',
      secondary: true,
      title: t('images.refreshModels'),
      action: 'refresh-models',
    });
    refresh.classList.add('icon');
    for (const control of [this.prompt, this.model, this.size, this.quality, this.count]) {
      control.addEventListener('input', () => this.onChange());
      control.addEventListener('change', () => this.onChange());
    }
    this.prompt.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) this.callbacks.submit(this.value());
    });
    this.element = el(
      'form',
      { className: 'image-form', attrs: { 'aria-label': t('images.request') } },
      el(
        'div',
        { className: 'modes', attrs: { role: 'group', 'aria-label': t('images.mode') } },
        this.modeButtons.generate,
        this.modeButtons.edit,
      ),
      this.editInputs,
      labelled(t('images.prompt'), 'prompt', this.prompt),
      el(
        'div',
        { className: 'row' },
        el(
          'div',
          { className: 'field grow' },
          el('label', { text: t('images.model'), attrs: { for: 'model' } }),
          el('div', { className: 'inline' }, this.model, refresh),
        ),
        labelled(t('images.size'), 'size', this.size),
        labelled(t('images.quality'), 'quality', this.quality),
        labelled(t('images.count'), 'count', this.count),
      ),
      this.modelsNotice,
      el(
        'div',
        { className: 'field' },
        el('span', { className: 'label', text: t('images.references') }),
        this.referenceList,
      ),
      this.costHint,
      el('div', { className: 'actions' }, this.submitButton),
    );
    this.element.addEventListener('submit', (e) => e.preventDefault());
    this.render();
  }

  setChoices(models: string[], sizes: string[], defaultSize: string, notice?: string): void {
    this.defaultSize = defaultSize;
    setOptions(this.model, models, this.model.value);
    setOptions(this.size, sizes, this.size.value || defaultSize);
    this.setModels(models, notice);
  }

  /** The quality choices of the selected model's family (src/shared/imageCost.ts); the current one kept if it is one. */
  private syncQualities(): void {
    const options = qualitiesFor(this.model.value);
    const shown = [...this.quality.options].map((o) => o.value);
    if (shown.length === options.length && shown.every((v, i) => v === options[i])) return;
    const current = this.quality.value;
    setOptions(this.quality, options, options.includes(current) ? current : options[0]);
  }

  setModels(models: string[], notice?: string): void {
    const current = this.model.value;
    setOptions(this.model, models, current);
    this.modelsNotice.textContent = notice ?? '';
    this.model.disabled = models.length === 0;
    this.render();
  }

  /** Fills the form (snapshot default, saved state, or Re-run with changes). */
  fill(form: ImageForm): void {
    this.mode = form.mode;
    this.prompt.value = form.prompt;
    if (form.model) this.model.value = form.model;
    if (form.size) {
      if (![...this.size.options].some((o) => o.value === form.size))
        this.size.append(el('option', { text: form.size, attrs: { value: form.size } }));
      this.size.value = form.size;
    }
    this.syncQualities();
    if (form.quality && [...this.quality.options].some((o) => o.value === form.quality))
      this.quality.value = form.quality;
    this.count.value = String(form.n);
    this.source = form.source ? { path: form.source } : undefined;
    this.mask = form.mask ? { path: form.mask } : undefined;
    this.references = form.references.map((path) => ({ path }));
    this.render();
  }

  picked(slot: InputSlot, file: PickedFile): void {
    if (slot === 'source') this.source = file;
    else if (slot === 'mask') this.mask = file;
    else if (!this.references.some((r) => r.path === file.path)) this.references.push(file);
    this.onChange();
  }

  value(): ImageForm {
    const n = Math.min(10, Math.max(1, Math.round(Number(this.count.value) || 1)));
    return {
      mode: this.mode,
      prompt: this.prompt.value,
      model: this.model.value,
      size: this.size.value,
      quality: this.quality.value,
      n,
      source: this.mode === 'edit' ? this.source?.path : undefined,
      mask: this.mode === 'edit' ? this.mask?.path : undefined,
      references: this.references.map((r) => r.path),
    };
  }

  private setMode(mode: ImageForm['mode']): void {
    this.mode = mode;
    this.onChange();
  }

  private onChange(): void {
    this.render();
    this.callbacks.changed(this.value());
  }

  private render(): void {
    this.syncQualities();
    for (const [mode, node] of Object.entries(this.modeButtons)) {
      node.setAttribute('aria-pressed', String(mode === this.mode));
      node.classList.toggle('secondary', mode !== this.mode);
    }
    this.submitButton.querySelector('span:last-child')!.textContent =
      this.mode === 'edit' ? t('images.editImage') : t('images.generate');
    this.editInputs.hidden = this.mode !== 'edit';
    this.editInputs.replaceChildren(
      this.fileSlot(t('images.source'), 'source', this.source),
      this.fileSlot(t('images.mask'), 'mask', this.mask),
    );
    this.referenceList.replaceChildren(
      ...this.references.map((ref, index) =>
        this.chip(ref, () => {
          this.references.splice(index, 1);
          this.onChange();
        }),
      ),
      button(t('images.add'), () => this.callbacks.pick('reference'), {
        icon: 'add',
        secondary: true,
        action: 'add-reference',
      }),
    );
    const form = this.value();
    const reasons = costFactors(
      {
        kind: form.mode === 'edit' ? 'edit' : 'generation',
        n: form.n,
        size: form.size,
        quality: form.quality,
        referenceCount: form.references.length,
        hasMask: !!form.mask,
      },
      { size: this.defaultSize },
      localizer,
    );
    this.costHint.textContent = reasons.length
      ? t('images.costMore', reasons.join(localizer.t('; ')))
      : t('images.costDefault');
    this.costHint.classList.toggle('costly', reasons.length > 0);
  }

  private fileSlot(label: string, slot: InputSlot, file: PickedFile | undefined): HTMLElement {
    const clear = () => {
      if (slot === 'source') this.source = undefined;
      else this.mask = undefined;
      this.onChange();
    };
    return el(
      'div',
      { className: 'field slot', attrs: { 'data-slot': slot } },
      el('span', { className: 'label', text: label }),
      file
        ? this.chip(file, clear)
        : button(t('images.pick'), () => this.callbacks.pick(slot), {
            icon: 'folder-opened',
            secondary: true,
            action: `pick-${slot}`,
          }),
    );
  }

  private chip(file: PickedFile, remove: () => void): HTMLElement {
    const src = safeImageSrc(file.thumbnail);
    const close = button('', remove, { icon: 'close', secondary: true, title: t('images.remove', file.path) });
    close.classList.add('icon');
    return el(
      'span',
      { className: 'chip', title: file.path },
      src ? el('img', { attrs: { src, alt: '' } }) : undefined,
      el('span', { text: file.path }),
      close,
    );
  }
}
