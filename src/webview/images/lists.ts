// Task progress list and the gallery of this workspace's results.
import type { GalleryAction, GalleryItem, TaskView } from '../../shared/protocol/images';
import { button, el, safeImageSrc } from '../common/dom';
import { t, type WebviewStringKey } from '../common/strings';

const STATE_TEXT: Record<TaskView['state'], WebviewStringKey> = {
  submitting: 'images.state.submitting',
  pending: 'images.state.pending',
  cancelled: 'images.state.cancelled',
  saving: 'images.state.saving',
  saved: 'images.state.saved',
  failed: 'images.state.failed',
  expired: 'images.state.expired',
  unknown: 'images.state.unknown',
};

export class TaskList {
  readonly element = el('section', {
    className: 'tasks',
    attrs: { 'aria-label': t('images.imageTasks'), id: 'tasks' },
  });
  private readonly tasks = new Map<string, TaskView>();

  constructor(private readonly actions: { cancel(localId: string): void; resume(localId: string): void }) {}

  set(tasks: TaskView[]): void {
    this.tasks.clear();
    for (const task of tasks) this.tasks.set(task.localId, task);
    this.render();
  }

  update(task: TaskView): void {
    const previous = this.tasks.get(task.localId);
    // Progress-only updates carry the record as it was; keep the newer state.
    this.tasks.set(task.localId, { ...previous, ...task });
    this.render();
  }

  private render(): void {
    const visible = [...this.tasks.values()].sort((a, b) => b.submittedAt.localeCompare(a.submittedAt)).slice(0, 8);
    this.element.hidden = visible.length === 0;
    this.element.replaceChildren(el('h3', { text: t('images.tasks') }), ...visible.map((task) => this.row(task)));
  }

  private row(task: TaskView): HTMLElement {
    const active = task.state === 'submitting' || task.state === 'pending' || task.state === 'saving';
    const progress = el('progress', { attrs: { max: '100', 'aria-label': t('images.progress') } });
    if (task.progress !== undefined) progress.value = task.progress;
    if (task.state === 'saved') progress.value = 100;
    const status = `${t(STATE_TEXT[task.state])}${active && task.progress !== undefined ? ` ${Math.round(task.progress)}%` : ''}`;
    return el(
      'div',
      { className: `task state-${task.state}`, attrs: { 'data-local-id': task.localId, 'data-state': task.state } },
      el(
        'div',
        { className: 'task-text' },
        el('span', { className: 'task-prompt', text: task.prompt }),
        el('span', { className: 'task-status', text: status, title: task.message ?? '' }),
      ),
      active || task.state === 'saved' ? progress : undefined,
      task.state === 'pending'
        ? button(t('images.cancel'), () => this.actions.cancel(task.localId), {
            icon: 'debug-stop',
            secondary: true,
            action: 'cancel-task',
            title: t('images.cancelTitle'),
          })
        : undefined,
      task.state === 'cancelled'
        ? button(t('images.check'), () => this.actions.resume(task.localId), {
            icon: 'sync',
            secondary: true,
            action: 'resume-task',
          })
        : undefined,
      task.message && !active ? el('div', { className: 'task-message', text: task.message }) : undefined,
    );
  }
}

const ACTIONS: Array<{ action: GalleryAction; label: WebviewStringKey; icon: string }> = [
  { action: 'ask', label: 'images.action.ask', icon: 'comment-discussion' },
  { action: 'insert', label: 'images.action.insert', icon: 'insert' },
  { action: 'reveal', label: 'images.action.reveal', icon: 'files' },
  { action: 'open', label: 'images.action.open', icon: 'go-to-file' },
  { action: 'copyPath', label: 'images.action.copyPath', icon: 'copy' },
  { action: 'rerun', label: 'images.action.rerun', icon: 'refresh' },
];

export class Gallery {
  readonly element = el('section', {
    className: 'gallery',
    attrs: { 'aria-label': t('images.results'), id: 'gallery' },
  });

  constructor(private readonly onAction: (action: GalleryAction, id: string) => void) {}

  set(items: GalleryItem[], emptyText: string): void {
    const grid = el('div', { className: 'grid' }, ...items.map((item) => this.card(item)));
    this.element.replaceChildren(
      el('h3', { text: t('images.resultsCount', items.length) }),
      items.length ? grid : el('p', { className: 'empty', text: emptyText }),
    );
  }

  private card(item: GalleryItem): HTMLElement {
    const src = safeImageSrc(item.thumbnail);
    const meta = [item.model, item.size, formatTime(item.createdAt)].filter(Boolean).join(' · ');
    const buttons = ACTIONS.map(({ action, label: key, icon }) => {
      const label = t(key);
      const b = button('', () => this.onAction(action, item.id), { icon, secondary: true, title: label, action });
      b.classList.add('icon');
      b.setAttribute('aria-label', label);
      return b;
    });
    return el(
      'figure',
      { className: 'card', attrs: { 'data-id': item.id } },
      src
        ? el('img', { attrs: { src, alt: item.prompt, loading: 'lazy' } })
        : el('div', { className: 'no-thumb', text: item.path }),
      el(
        'figcaption',
        {},
        el('div', { className: 'prompt', text: item.prompt, title: item.prompt }),
        el('div', { className: 'meta', text: meta, title: item.path }),
        el('div', { className: 'card-actions' }, ...buttons),
      ),
    );
  }
}

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}
