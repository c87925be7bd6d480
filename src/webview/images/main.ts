// Image panel webview entry: form, tasks and gallery, built once the host's string table arrives (after 'ready').
// All work happens in the host; this page only shows state and sends typed messages. No network (CSP has no
// connect-src), no vscode import.
import type { HostToImagesMessage, ImageForm } from '../../shared/protocol/images';
import { el } from '../common/dom';
import { t } from '../common/strings';
import { channel, post, savedForm, saveForm } from './api';
import { FormView } from './form';
import { Gallery, TaskList } from './lists';

channel.connect(build);

function build(): (message: HostToImagesMessage) => void {
  const status = el('div', { className: 'status', attrs: { id: 'status', role: 'status', 'aria-live': 'polite' } });
  const folder = el('div', { className: 'folder', attrs: { id: 'folder' } });
  const form = new FormView({
    submit: (value) => submit(value),
    pick: (slot) => post({ type: 'pick', slot }),
    refreshModels: () => post({ type: 'refreshModels' }),
    changed: (value) => saveForm(value),
  });
  const tasks = new TaskList({
    cancel: (localId) => post({ type: 'cancelTask', localId }),
    resume: (localId) => post({ type: 'resumeTask', localId }),
  });
  const gallery = new Gallery((action, id) => post({ type: 'galleryAction', action, id }));
  const root = document.getElementById('root') ?? document.body;
  root.replaceChildren(
    el(
      'main',
      { className: 'images' },
      el('h2', { text: t('images.title') }),
      folder,
      form.element,
      status,
      tasks.element,
      gallery.element,
    ),
  );

  // The panel renders no links (all text goes through textContent). Should an anchor ever appear, its clicks stop
  // here: VS Code's webview script, listening on window, opens any clicked <a href> itself, without our checks.
  for (const type of ['click', 'auxclick'] as const) {
    document.addEventListener(type, (event) => {
      if ((event.target as Element | null)?.closest?.('a')) {
        event.preventDefault();
        event.stopPropagation();
      }
    });
  }

  function submit(value: ImageForm): void {
    if (!value.prompt.trim()) {
      status.textContent = t('images.enterPrompt');
      return;
    }
    if (value.mode === 'edit' && !value.source) {
      status.textContent = t('images.pickSourceFirst');
      return;
    }
    status.textContent = value.mode === 'edit' ? t('images.sendingEdit') : t('images.sendingRequest');
    channel.request('submit', { form: value }).then(
      (result) => {
        status.textContent = result.message ?? (result.ok ? t('images.done') : '');
      },
      (error: unknown) => {
        status.textContent = error instanceof Error ? error.message : '';
      },
    );
  }

  function apply(message: HostToImagesMessage): void {
    switch (message.type) {
      case 'snapshot': {
        const s = message.snapshot;
        form.setChoices(s.models, s.sizes, s.sizes[0] ?? '1024x1024', s.modelsNotice);
        form.fill(savedForm() ?? s.form);
        folder.textContent = s.folderName
          ? t(
              'images.savingTo',
              s.outputFolder || '.',
              s.folderName,
              s.requestMode === 'async' ? t('images.asyncTasks') : t('images.syncRequests'),
            )
          : t('images.noFolder');
        tasks.set(s.tasks);
        gallery.set(s.gallery, t('images.noImages'));
        return;
      }
      case 'models':
        form.setModels(message.models, message.notice);
        return;
      case 'gallery':
        gallery.set(message.items, t('images.noImages'));
        return;
      case 'task':
        tasks.update(message.task);
        return;
      case 'picked':
        form.picked(message.slot, message.file);
        return;
      case 'prefill':
        form.fill(message.form);
        saveForm(form.value());
        status.textContent = t('images.prefilled');
        return;
    }
  }

  return apply;
}
