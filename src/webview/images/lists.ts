// Task progress list and the gallery of this workspace's results.
import type { GalleryAction, GalleryItem, TaskView } from '../../shared/protocol/images';
import { button, el, safeImageSrc } from './dom';

const STATE_TEXT: Record<TaskView['state'], string> = {
  submitting: 'Submitting', pending: 'Generating', cancelled: 'Stopped waiting (may still be charged)', saving: 'Saving',
  saved: 'Saved', failed: 'Failed', expired: 'Expired', unknown: 'Outcome unknown: check the console',
};

export class TaskList {
  readonly element = el('section', { className: 'tasks', attrs: { 'aria-label': 'Image tasks', id: 'tasks' } });
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
    this.element.replaceChildren(el('h3', { text: 'Tasks' }), ...visible.map((task) => this.row(task)));
  }

  private row(task: TaskView): HTMLElement {
    const active = task.state === 'submitting' || task.state === 'pending' || task.state === 'saving';
    const progress = el('progress', { attrs: { max: '100', 'aria-label': 'Progress' } });
    if (task.progress !== undefined) progress.value = task.progress;
    if (task.state === 'saved') progress.value = 100;
    const status = `${STATE_TEXT[task.state]}${active && task.progress !== undefined ? ` ${Math.round(task.progress)}%` : ''}`;
    return el('div', { className: `task state-${task.state}`, attrs: { 'data-local-id': task.localId, 'data-state': task.state } },
      el('div', { className: 'task-text' }, el('span', { className: 'task-prompt', text: task.prompt }),
        el('span', { className: 'task-status', text: status, title: task.message ?? '' })),
      active || task.state === 'saved' ? progress : undefined,
      task.state === 'pending' ? button('Cancel', () => this.actions.cancel(task.localId), { icon: 'debug-stop', secondary: true, action: 'cancel-task', title: 'Stop waiting (the gateway may still finish and charge the task)' }) : undefined,
      task.state === 'cancelled' ? button('Check', () => this.actions.resume(task.localId), { icon: 'sync', secondary: true, action: 'resume-task' }) : undefined,
      task.message && !active ? el('div', { className: 'task-message', text: task.message }) : undefined);
  }
}

const ACTIONS: Array<{ action: GalleryAction; label: string; icon: string }> = [
  { action: 'insert', label: 'Insert', icon: 'insert' },
  { action: 'reveal', label: 'Reveal in Explorer', icon: 'files' },
  { action: 'open', label: 'Open', icon: 'go-to-file' },
  { action: 'copyPath', label: 'Copy path', icon: 'copy' },
  { action: 'rerun', label: 'Re-run with changes', icon: 'refresh' },
];

export class Gallery {
  readonly element = el('section', { className: 'gallery', attrs: { 'aria-label': 'Results in this workspace', id: 'gallery' } });

  constructor(private readonly onAction: (action: GalleryAction, id: string) => void) {}

  set(items: GalleryItem[], emptyText: string): void {
    const grid = el('div', { className: 'grid' }, ...items.map((item) => this.card(item)));
    this.element.replaceChildren(el('h3', { text: `Results (${items.length})` }), items.length ? grid : el('p', { className: 'empty', text: emptyText }));
  }

  private card(item: GalleryItem): HTMLElement {
    const src = safeImageSrc(item.thumbnail);
    const meta = [item.model, item.size, formatTime(item.createdAt)].filter(Boolean).join(' · ');
    const buttons = ACTIONS.map(({ action, label, icon }) => {
      const b = button('', () => this.onAction(action, item.id), { icon, secondary: true, title: label, action });
      b.classList.add('icon');
      b.setAttribute('aria-label', label);
      return b;
    });
    return el('figure', { className: 'card', attrs: { 'data-id': item.id } },
      src ? el('img', { attrs: { src, alt: item.prompt, loading: 'lazy' } }) : el('div', { className: 'no-thumb', text: item.path }),
      el('figcaption', {}, el('div', { className: 'prompt', text: item.prompt, title: item.prompt }),
        el('div', { className: 'meta', text: meta, title: item.path }), el('div', { className: 'card-actions' }, ...buttons)));
  }
}

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}
