// Chat webview entry: once the host's string table arrives (after 'ready'), builds the view, applies host messages,
// and turns clicks and keys into requests. State lives in the host; after 'ready' it sends a snapshot.
import type { HostToWebviewMessage } from '../../shared/protocol/chat';
import { el } from '../common/dom';
import { t } from '../common/strings';
import { ChangesView } from './changesView';
import { channel, loadDraft, onRefusal, post, saveDraft } from './api';
import { Composer } from './composer';
import { ConversationList } from './conversationList';
import { vscodeLanguageId } from './highlight';
import { MessageList } from './messageList';

channel.connect(build);

function build(): (message: HostToWebviewMessage) => void {
  const draft = loadDraft();
  const title = el('h2', { className: 'title', text: t('chat.title') });
  const conversations = new ConversationList();
  const messages = new MessageList();
  const composer = new Composer((text) => saveDraft({ ...loadDraft(), draft: text }));
  const changes = new ChangesView();
  // New Chat and Show Conversations are the view's title-bar actions (VS Code's place for them, in the palette and
  // bindable to keys too); the header only names the conversation shown, which the view's own title ("Chat") does not.
  const header = el('div', { className: 'header' }, title);
  const root = document.getElementById('root') ?? document.body;
  root.replaceChildren(
    el(
      'div',
      { className: 'chat' },
      header,
      conversations.element,
      messages.element,
      messages.jump,
      messages.live,
      changes.element,
      composer.element,
    ),
  );
  composer.setText(draft.draft ?? '');
  let activeId = '';
  let busy = false;

  function apply(message: HostToWebviewMessage): void {
    // Only the conversation shown is drawn: a message about any other one is dropped.
    if ('conversationId' in message && message.conversationId !== activeId) return;
    switch (message.type) {
      case 'snapshot': {
        const s = message.snapshot;
        activeId = s.activeId;
        title.textContent = s.conversations.find((c) => c.id === s.activeId)?.title ?? t('chat.title');
        conversations.set(s.conversations, s.activeId);
        messages.reset(s.messages);
        composer.setModels(s.models, s.modelsProblem);
        composer.setSettings(s.settings);
        composer.setAttachments(s.attachments);
        composer.setMode(s.mode ?? 'ask');
        composer.approvals.set(s.approvals);
        composer.setAgentAvailability(s.agent ?? { ok: false, reason: t('chat.agentUnavailable') });
        changes.set(s.changes ?? []);
        setBusy(s.busy);
        return;
      }
      case 'mode':
        return composer.setMode(message.mode);
      case 'agentAvailability':
        return composer.setAgentAvailability(message.availability);
      case 'agentTool':
        return messages.agentTool(message.messageId, message.tool);
      case 'agentSubagent':
        return messages.agentSubagent(message.messageId, message.subagent, message.usage);
      case 'agentUsage':
        return messages.agentUsage(message.messageId, message.step, message.turn);
      case 'agentWait':
        return messages.agentWait(message.messageId, message.until);
      case 'agentCondensed':
        return messages.agentCondensed(message.messageId, message.condensed);
      case 'context':
        return composer.meter.set(message);
      case 'condensing':
        return messages.condensing(message.messageId, message.running);
      case 'agentNote':
        return messages.agentNote(message.messageId, message.note);
      case 'agentEnd':
        return messages.agentEnd(message.messageId, message.end);
      case 'agentRestored':
        return messages.agentRestored(message.messageId);
      case 'changes':
        return changes.set(message.changes);
      case 'conversations':
        // The host's active conversation is not the one shown: this page missed a snapshot, and would ignore every
        // message of the active conversation. It asks for the whole state again.
        if (activeId && message.activeId !== activeId) channel.resync();
        conversations.set(message.conversations, message.activeId);
        title.textContent = message.conversations.find((c) => c.id === activeId)?.title ?? title.textContent;
        return;
      case 'messageAppended':
        return messages.append(message.message);
      case 'messageUpdated':
        return messages.update(message.message);
      case 'messagesTruncated':
        return messages.truncateFrom(message.fromMessageId);
      case 'streamDelta':
        return messages.delta(message.messageId, message.text, message.thinking);
      case 'streamFinished':
        return messages.finish(message.messageId, {
          status: message.status,
          usage: message.usage,
          stopReason: message.stopReason,
          model: message.model,
        });
      case 'errorCard':
        return messages.setError(message.messageId, message.card);
      case 'models':
        return composer.setModels(message.models, message.problem);
      case 'settings':
        return composer.setSettings(message.settings, message.warning);
      case 'busy':
        return setBusy(message.busy);
      case 'attachments':
        return composer.setAttachments(message.attachments);
      case 'focusInput':
        return composer.input.focus();
      case 'attachImage':
        return void composer.attachImageData(message.name, message.mediaType, message.data);
      case 'showConversations':
        // The title bar's button, pressed again while the list shows (the view was visible), closes it.
        if (message.toggle && conversations.visible) return hideConversations();
        return conversations.toggle(true);
    }
  }

  // A refused request: read out and shown above the composer.
  onRefusal((text) => {
    messages.announce(text);
    showNotice(text);
  });

  /** Closes the conversation list; the keyboard goes back to the composer. */
  function hideConversations(): void {
    conversations.toggle(false);
    composer.input.focus();
  }
  // Escape in the list closes it (before the page-wide Escape, which stops a running answer).
  conversations.element.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.isComposing) return;
    event.preventDefault();
    event.stopPropagation();
    hideConversations();
  });

  function setBusy(value: boolean): void {
    busy = value;
    composer.setBusy(value);
  }

  let noticeTimer: number | undefined;
  const notice = el('div', { className: 'notice', attrs: { role: 'status' } });
  composer.element.prepend(notice);
  function showNotice(text: string): void {
    notice.textContent = text;
    window.clearTimeout(noticeTimer);
    noticeTimer = window.setTimeout(() => (notice.textContent = ''), 6000);
  }

  function messageText(id: string | undefined): string {
    return (id && messages.view(id)?.message.text) || '';
  }

  function codeOf(button: HTMLElement): { code: string; languageId?: string } {
    const block = button.closest<HTMLElement>('.code-block');
    return {
      code: block?.querySelector('code')?.textContent ?? '',
      languageId: vscodeLanguageId(block?.dataset.language),
    };
  }

  /**
   * Links of model output carry no href (markdown.ts): the host validates data-href, asks, and opens it once.
   * The event stops here, so VS Code's webview script (listening on window) never acts on an anchor click itself.
   */
  function linkRequest(event: Event): boolean {
    const link = (event.target as Element | null)?.closest?.('a');
    if (!link) return false;
    event.preventDefault();
    event.stopPropagation();
    const href = link.dataset.href;
    if (href) post({ type: 'openLink', href });
    else if (link.classList.contains('link-refused')) showNotice(link.title);
    return true;
  }

  /** Clicks anywhere: links go to the host (never navigate), buttons carry data-action. */
  document.addEventListener('click', (event) => {
    if (linkRequest(event)) return;
    const button = (event.target as HTMLElement).closest<HTMLElement>('[data-action]');
    if (button) runAction(button);
  });
  // Middle click is a click on a link too (one request to the host); other buttons do nothing on links.
  document.addEventListener('auxclick', (event) => {
    if (event.button === 1) linkRequest(event);
    else if ((event.target as Element | null)?.closest?.('a')) event.stopPropagation();
  });
  // Enter on a focused link (they are focusable: tabindex, role=link) opens it like a click.
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.isComposing || event.repeat) return;
    if ((event.target as Element | null)?.matches?.('a[data-href], a.link-refused')) linkRequest(event);
  });

  function runAction(button: HTMLElement): void {
    const {
      messageId = '',
      conversationId = '',
      attachmentId = '',
      toolId = '',
      changeId = '',
      changeAction = '',
      hunk = '',
    } = button.dataset;
    switch (button.dataset.action) {
      case 'send':
        composer.send();
        return;
      case 'stop':
        post({ type: 'stop' });
        return;
      case 'selectConversation':
        post({ type: 'selectConversation', conversationId });
        conversations.toggle(false);
        return;
      case 'deleteConversation':
        post({ type: 'deleteConversation', conversationId });
        return;
      case 'removeAttachment':
        post({ type: 'removeAttachment', attachmentId });
        composer.input.focus();
        return;
      case 'copyMessage':
        post({ type: 'copy', text: messageText(messageId) });
        showNotice(t('chat.copied'));
        return;
      // The answer's buttons whose request only names the message.
      case 'regenerate':
      case 'continue':
      case 'restoreCheckpoint':
      case 'actOnPlan':
        post({ type: button.dataset.action, messageId });
        return;
      case 'edit':
        startEdit(messageId);
        return;
      case 'errorAction':
        post({ type: 'errorAction', messageId, action: button.dataset.errorAction as never });
        return;
      case 'copyCode':
        post({ type: 'copy', text: codeOf(button).code });
        showNotice(t('chat.codeCopied'));
        return;
      case 'insertCode':
        post({ type: 'insertCode', ...codeOf(button) });
        return;
      case 'openCode':
        post({ type: 'openCodeInEditor', ...codeOf(button) });
        return;
      case 'approve':
      case 'deny':
        // One answer per prompt: the buttons go inert until the host's card update replaces them.
        for (const b of Array.from(button.parentElement?.querySelectorAll('button') ?? [])) b.disabled = true;
        post({ type: 'approval', toolUseId: toolId, approved: button.dataset.action === 'approve' });
        return;
      case 'change':
        if (changeAction === 'open' || changeAction === 'accept' || changeAction === 'reject')
          post({ type: 'change', changeId, action: changeAction });
        return;
      case 'changeHunk':
        if (changeAction === 'accept' || changeAction === 'reject')
          post({ type: 'changeHunk', changeId, hunk, action: changeAction });
        return;
      case 'changesAll':
        if (changeAction === 'accept' || changeAction === 'reject') post({ type: 'changesAll', action: changeAction });
        return;
      case 'openInstructions':
        post({ type: 'openInstructions', messageId, index: Number(button.dataset.index ?? '0') });
        return;
    }
  }

  /** Edit a question in place: Enter resends from there (later messages are replaced), Escape cancels. */
  function startEdit(messageId: string): void {
    const view = messages.view(messageId);
    if (!view || busy) return;
    const body = view.element.querySelector<HTMLElement>('.body');
    if (!body) return;
    const editor = el('textarea', {
      className: 'input edit',
      attrs: { 'aria-label': t('chat.editQuestion'), rows: '3' },
    });
    editor.value = view.message.text;
    const original = Array.from(body.childNodes);
    body.replaceChildren(editor);
    editor.focus();
    editor.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        body.replaceChildren(...original);
      } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        if (editor.value.trim()) post({ type: 'editAndResend', messageId, text: editor.value });
      }
    });
  }

  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && busy) {
      event.preventDefault();
      post({ type: 'stop' });
    }
  });

  return apply;
}
