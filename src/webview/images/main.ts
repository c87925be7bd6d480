// Image panel webview entry: form, tasks and gallery. All work happens in the host; this page only
// shows state and posts typed requests. No network (CSP has no connect-src), no vscode import.
import type { HostToImagesMessage, ImageForm } from '../../shared/protocol/images';
import { onHostMessage, post, savedForm, saveForm } from './api';
import { el } from './dom';
import { FormView } from './form';
import { Gallery, TaskList } from './lists';

let requestCounter = 0;
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
root.replaceChildren(el('main', { className: 'images' }, el('h2', { text: 'Images' }), folder, form.element, status, tasks.element, gallery.element));

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
    status.textContent = 'Enter a prompt.';
    return;
  }
  if (value.mode === 'edit' && !value.source) {
    status.textContent = 'Pick the image to edit first.';
    return;
  }
  const requestId = `r${++requestCounter}`;
  status.textContent = value.mode === 'edit' ? 'Sending the edit...' : 'Sending the request...';
  post({ type: 'submit', requestId, form: value });
}

function apply(message: HostToImagesMessage): void {
  switch (message.type) {
    case 'snapshot': {
      const s = message.snapshot;
      form.setChoices(s.models, s.sizes, s.qualities, s.sizes[0] ?? '1024x1024', s.modelsNotice);
      form.fill(savedForm() ?? s.form);
      folder.textContent = s.folderName
        ? `Saving to ${s.outputFolder || '.'}/ in ${s.folderName} · ${s.requestMode === 'async' ? 'async tasks' : 'synchronous requests'}`
        : 'No folder open: you will be asked where to save images.';
      tasks.set(s.tasks);
      gallery.set(s.gallery, 'No images yet in this workspace.');
      return;
    }
    case 'models': form.setModels(message.models, message.notice); return;
    case 'gallery': gallery.set(message.items, 'No images yet in this workspace.'); return;
    case 'task': tasks.update(message.task); return;
    case 'picked': form.picked(message.slot, message.file); return;
    case 'prefill':
      form.fill(message.form);
      saveForm(form.value());
      status.textContent = 'Form filled from the selected image: change it and send again.';
      return;
    case 'submitted': status.textContent = message.message ?? (message.ok ? 'Done.' : ''); return;
  }
}

onHostMessage(apply);
post({ type: 'ready' });
