// Chat feature wiring: the view, the session controller, and the chat commands (one table of named handlers).
// Its own bundle (dist/features/chat.js), loaded on first use: the view's first resolve or a chat command
// (src/extension.ts registers the stubs).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { adviseOnError } from '../../gateway';
import { balanceAfterError } from '../../platform/balanceNote';
import type { CatalogSnapshot, ClientOverrides, Services } from '../../platform/services';
import type { CommandTable, TestHooks } from '../../platform/commands';
import { listWorksAt } from '../../platform/listWorks';
import { gatewaySettings } from '../../platform/settings';
import { isListMissing, unlistedHint } from '../../catalog/listing';
import { modelVision } from '../../catalog/vision';
import { Commands } from '../../shared/commands';
import { clampSetting } from '../../shared/settingBounds';
import type { WebviewToHostMessage } from '../../shared/protocol/chat';
import { RequestFailed } from '../../shared/protocol/channel';
import { readAgentDefinitions, readProjectInstructions, registerAgentHost } from '../../agentHost';
import { readSubagentSettings } from '../../agentHost/settings';
import { contextWindowOf } from '../../agent/contextWindow';
import { AgentTurns, changeView } from '../agent/agentTurn';
import { DEFAULT_CONDENSE_THRESHOLD } from '../condense/condense';
import { conversationMarkdown } from '../store/exportMarkdown';
import { approvalsNow, chatModelOptions, openApprovalSettings, setModelReasoning } from './composerSettings';
import { MentionHost } from './mentionHost';
import { TerminalRecorder } from './terminalRecorder';
import { ChatViewProvider } from './chatViewProvider';
import { toErrorCard } from '../session/errorCard';
import { historyFiles, imageFiles } from './historyFiles';
import { redactingStorage } from '../store/history';
import { redactDeep } from '../../shared/secretRedaction';
import { imageAttachment } from '../composer/imageAttachment';
import { ImageStore } from '../store/imageStore';
import { copyToClipboard, insertCode, openCodeInEditor, openLink, runErrorAction } from './hostActions';
import { SessionController } from '../session/session';
import { accessProblem } from '../../platform/workspaceSettings';
import { chatTestHooks } from './testHooks';
import { changeAction, hunkAction, hunkAtCursor, remainingOfChange } from './changeActions';

export const CHAT_BUSY_CONTEXT = 'modelGateway.chatBusy';

/** What the chat bundle gives activate(): its command table and the view's real provider. */
export interface ChatFeature extends vscode.Disposable {
  readonly commands: CommandTable<'chat'>;
  readonly view: vscode.WebviewViewProvider;
  readonly testHooks: TestHooks;
}

export function registerChat(services: Services): ChatFeature {
  const { context, config, log } = services;
  const provider: ChatViewProvider = new ChatViewProvider(
    context.extensionUri,
    (m) => handle(m),
    () => loaded,
    () => ({ type: 'snapshot', snapshot: session.snapshot() }),
    log,
  );
  const agentHost = registerAgentHost(context);
  // The user's own setting only: a repository's settings must not make the chat send extra (billed) requests.
  const condenseThreshold = (): number => {
    const v = gatewaySettings.condenseThreshold;
    return typeof v === 'number' && Number.isFinite(v)
      ? clampSetting('agent.condenseThreshold', v, false).used
      : DEFAULT_CONDENSE_THRESHOLD;
  };
  // What the gateway's model list says about the model's window (200,000 when it says nothing).
  const contextWindow = (model: string, maxTokens: number): number =>
    contextWindowOf(services.catalog.peek()?.models.find((m) => m.id === model)?.raw, maxTokens);
  // The chat's own client, with the client's 429 retries off: the agent loop and the request slot (Ask) are the one
  // owner of "wait and send again" and show every wait; the key's fingerprint keys the prompt-caching memory.
  const chatClient = async (onRecorded?: ClientOverrides['onRecorded']) => {
    if (!(await services.gateway.clientOrExplain())) return undefined;
    const withKey = await services.gateway.clientWithKey();
    const secret = withKey && (await services.keys.activeSecret());
    if (!withKey || !secret) return undefined;
    return {
      client: services.gateway.clientFor(secret, {
        maxRetries: 0,
        keyFingerprint: withKey.key.fingerprint,
        onRecorded,
      }),
      keyId: withKey.key.fingerprint,
    };
  };
  const agent = new AgentTurns({
    host: agentHost,
    state: context.globalState,
    log,
    l10n: vscode.l10n,
    accessProblem: () => accessProblem(config.current, vscode.l10n),
    showPath: (p) => vscode.workspace.asRelativePath(p),
    // The user's own setting only: a repository's settings must not make the agent send extra (billed) requests.
    condenseThreshold,
    client: () => chatClient(),
    contextWindow,
    vision: (model) =>
      modelVision(
        services.catalog.peek()?.models.find((m) => m.id === model)?.raw ?? { id: model },
        config.current.modelVision,
      ).vision,
    costOf: (model, usage) => services.account.costOf({ model, usage }),
    wouldPassDailyBudget: (nextTokens) => services.account.wouldPassDailyBudget(nextTokens),
    redact: services.secrets.redactKnown,
    // User settings only: a repository cannot turn on editing sub-agents, pick their model or raise how many run.
    subagents: readSubagentSettings,
    // Read like the instruction files (trusted workspace, real paths, capped); what is left out goes to the log.
    agentDefinitions: async () => {
      const { definitions, skipped } = await readAgentDefinitions();
      for (const note of skipped) log.info(`Agent definition not used: ${note}`);
      return definitions;
    },
  });
  const warn = (message: string) => log.warn(`chat: ${message}`);
  const images = new ImageStore(imageFiles(context.globalStorageUri, warn));
  const session = new SessionController({
    storage: redactingStorage(historyFiles(context.globalStorageUri, warn), services.secrets.redactKnown),
    images,
    getClient: async (onRecorded) => (await chatClient(onRecorded))?.client,
    accessProblem: () => accessProblem(config.current, vscode.l10n),
    errorCard: (error) => {
      const card = toErrorCard(
        error,
        (e) =>
          adviseOnError(e, {
            baseUrl: config.current.baseUrl,
            surface: 'chat',
            l10n: vscode.l10n,
            listWorks: listWorksAt(services.catalog, config.current.baseUrl),
          }),
        vscode.l10n,
      );
      const balance = balanceAfterError(services, error);
      if (balance) card.detail += ` ${balance}`;
      // Shown, stored with the conversation and copied: the one redactor, whatever the error carried.
      return redactDeep(card, services.secrets.redact);
    },
    defaults: () => ({
      model: config.current.chat.defaultModel,
      agentModel: config.current.chat.agentDefaultModel,
      maxTokens: config.current.chat.maxTokens,
      systemPrompt: config.current.chat.systemPrompt,
    }),
    post: (message) => provider.post(message),
    secrets: () => services.secrets.values(),
    setBusy: (busy) => void vscode.commands.executeCommand('setContext', CHAT_BUSY_CONTEXT, busy),
    newId: () => randomUUID(),
    now: () => Date.now(),
    log,
    agent,
    l10n: vscode.l10n,
    instructions: readProjectInstructions,
    contextWindow,
    condenseThreshold,
    approvals: approvalsNow,
  });
  const loaded = session.load().catch((e) => log.error('chat: history could not be read', e));
  const terminals = new TerminalRecorder();
  const mentions = new MentionHost(
    () => agentHost.snapshot(),
    terminals,
    () => randomUUID(),
    services.secrets.redactKnown,
  );

  /** Shows a snapshot's chat models. Never fetches: it runs on catalog changes, which a fetch causes. */
  function showModels(snapshot: CatalogSnapshot | undefined): void {
    const models = (snapshot?.models ?? []).filter((m) => m.kind === 'chat');
    const problem = models.length
      ? undefined
      : snapshot?.listUnavailable
        ? unlistedHint(vscode.l10n)
        : vscode.l10n.t('No chat models for this key yet: set a key, then Refresh Models.');
    // The key's own list (not declared ids alone, not a gateway without a list route): a model it does not name
    // moves the open conversation to one it does (session.ts#setModels).
    const own = snapshot && !snapshot.listUnavailable && snapshot.fetchedAt > 0;
    const list = own
      ? {
          id: `${snapshot.keyFingerprint}|${snapshot.baseUrl}|${snapshot.fetchedAt}`,
          ids: new Set(snapshot.models.map((m) => m.id)),
        }
      : undefined;
    session.setModels(chatModelOptions(models, config.current), problem, list);
  }

  /** Startup only: the list (fetched when stale, through the catalog's coalescing). */
  async function loadModels(): Promise<void> {
    try {
      showModels(await services.catalog.get());
    } catch (error) {
      const cached = services.catalog.peek();
      if (cached) return showModels(cached);
      const hint = isListMissing(error) ? ` ${unlistedHint(vscode.l10n)}` : '';
      session.setModels(
        [],
        `${vscode.l10n.t('Model list unavailable: {0}', error instanceof Error ? error.message : String(error))}${hint}`,
      );
    }
  }

  /** One validated webview request: its result, or RequestFailed with the refusal the page shows. */
  async function handle(message: WebviewToHostMessage): Promise<unknown> {
    await loaded;
    if (message.type === 'searchConversations') return session.store.search(message.query);
    if (message.type === 'mentionSearch') return mentions.search(message.query);
    if (message.type === 'openApprovalSettings') return openApprovalSettings();
    if (message.type === 'setReasoning') return setModelReasoning(message.model, message.level);
    if (message.type === 'addMention') {
      const resolved = await mentions.resolve(message.kind, message.path);
      if ('refusal' in resolved) throw new RequestFailed(resolved.refusal);
      session.addAttachment(resolved);
      return undefined;
    }
    if (message.type === 'readImage') {
      const read = await mentions.readImage(message.path);
      if ('refusal' in read) throw new RequestFailed(read.refusal);
      return read;
    }
    if (message.type === 'addImage') {
      const { type: _type, requestId: _id, ...params } = message;
      const count = session.pending.filter((a) => a.kind === 'image').length;
      const made = await imageAttachment(randomUUID(), params, images, count, vscode.l10n);
      if ('refusal' in made) throw new RequestFailed(made.refusal);
      session.addAttachment(made);
      return undefined;
    }
    const refusal = await dispatch(session, message);
    if (refusal) throw new RequestFailed(refusal);
    return undefined;
  }

  /** Ask about This Image (Explorer, or the active image tab): the same rules as @, then the page scales it. */
  async function askAboutImage(uri: unknown): Promise<void> {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const target =
      uri instanceof vscode.Uri ? uri : input && typeof input === 'object' && 'uri' in input ? input.uri : undefined;
    if (!(target instanceof vscode.Uri))
      return void vscode.window.showInformationMessage(vscode.l10n.t('Pick an image file in the Explorer first.'));
    await loaded;
    const read = await mentions.readImage(target.fsPath);
    if ('refusal' in read) return void vscode.window.showWarningMessage(`Model Gateway: ${read.refusal}`);
    await provider.reveal();
    provider.post({ type: 'attachImage', ...read });
    provider.post({ type: 'focusInput' });
  }

  async function attachFromEditor(whole: boolean): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return void vscode.window.showInformationMessage(vscode.l10n.t('Open a file in an editor first.'));
    await loaded;
    const attachment = await mentions.fromEditor(editor, whole);
    if ('refusal' in attachment) return void vscode.window.showWarningMessage(`Model Gateway: ${attachment.refusal}`);
    session.addAttachment(attachment);
    await provider.reveal();
    provider.post({ type: 'focusInput' });
  }

  async function openChat(): Promise<void> {
    await provider.reveal();
    provider.post({ type: 'focusInput' });
  }

  async function newChat(): Promise<void> {
    await loaded;
    session.newConversation();
    await openChat();
  }

  async function showConversations(): Promise<void> {
    // Visible and live: the title bar's button was pressed (or the palette used) with the view in sight, and a second
    // press closes the list, as the webview's own button did. A view being opened by this command shows the list.
    const toggle = provider.visible && provider.isReady;
    await provider.reveal();
    provider.post({ type: 'showConversations', toggle });
  }

  /** Condense: the older turns of the open conversation summarised now (one request, Stop ends it). */
  async function condenseConversation(): Promise<void> {
    await loaded;
    await provider.reveal();
    const problem = await session.condense();
    if (problem) void vscode.window.showInformationMessage(problem);
  }

  /** Export: the open conversation as Markdown in a new editor (saved where the user chooses). */
  async function exportConversation(): Promise<void> {
    await loaded;
    const conversation = session.store.active;
    if (conversation.messages.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Model Gateway: this conversation is empty.'));
      return;
    }
    // The storage's redaction (every known secret's forms): the export leaves the extension as the files do.
    const content = conversationMarkdown(conversation, services.secrets.redactKnown, vscode.l10n);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'markdown', content }));
  }

  const commands: CommandTable<'chat'> = {
    [Commands.condenseConversation]: condenseConversation,
    [Commands.exportConversation]: exportConversation,
    [Commands.acceptHunk]: (uri?: unknown) => hunkAtCursor(agentHost, 'accept', uri),
    [Commands.rejectHunk]: (uri?: unknown) => hunkAtCursor(agentHost, 'reject', uri),
    [Commands.acceptProposedChange]: (uri?: unknown) => remainingOfChange(agentHost, 'accept', uri),
    [Commands.rejectProposedChange]: (uri?: unknown) => remainingOfChange(agentHost, 'reject', uri),
    [Commands.openChat]: openChat,
    [Commands.newChat]: newChat,
    [Commands.showConversations]: showConversations,
    [Commands.stopResponse]: () => session.stop(),
    [Commands.askAboutSelection]: () => attachFromEditor(false),
    [Commands.askAboutFile]: () => attachFromEditor(true),
    [Commands.askAboutImage]: (uri?: unknown) => askAboutImage(uri),
  };

  void loadModels();
  const disposables = vscode.Disposable.from(
    provider,
    terminals,
    { dispose: () => session.dispose() },
    services.catalog.onDidChange((snapshot) => showModels(snapshot)),
    agentHost.changes.onDidChange((changes) => provider.post({ type: 'changes', changes: changes.map(changeView) })),
    agentHost.onDidChangeAvailability((availability) => provider.post({ type: 'agentAvailability', availability })),
    config.onDidChange(() => {
      if (services.catalog.peek()) showModels(services.catalog.peek()); // they carry models.reasoning's values
      if (provider.isReady) provider.post({ type: 'snapshot', snapshot: session.snapshot() });
    }),
  );
  return {
    commands,
    view: provider,
    testHooks: chatTestHooks(context, session, agentHost, loaded, () => services.account.ledger()),
    dispose: () => disposables.dispose(),
  };

  /** One validated webview request; returns a refusal to show, if any. */
  async function dispatch(s: SessionController, m: WebviewToHostMessage): Promise<string | undefined> {
    switch (m.type) {
      case 'send':
        return s.send(m.text);
      case 'stop':
        s.stop();
        return undefined;
      case 'regenerate':
        return s.regenerate(m.messageId);
      case 'editAndResend':
        return s.editAndResend(m.messageId, m.text);
      case 'continue':
        return s.continueAnswer(m.messageId);
      case 'condense':
        return s.condense();
      case 'newConversation':
        s.newConversation();
        return undefined;
      case 'selectConversation':
        return s.selectConversation(m.conversationId) ? undefined : 'That conversation no longer exists.';
      case 'deleteConversation':
        return s.deleteConversation(m.conversationId) ? undefined : 'That conversation no longer exists.';
      case 'searchConversations':
      case 'mentionSearch':
      case 'addMention':
      case 'readImage':
      case 'addImage':
        return undefined; // handle() answers them
      case 'setModel':
        s.setSettings({ model: m.model });
        return undefined;
      case 'setMaxTokens':
        s.setSettings({ maxTokens: m.maxTokens });
        return undefined;
      case 'setSystemPrompt':
        s.setSettings({ systemPrompt: m.systemPrompt });
        return undefined;
      case 'removeAttachment':
        s.removeAttachment(m.attachmentId);
        return undefined;
      // Every way out of the chat (clipboard, editor) goes through the storage's redaction, as the export does.
      case 'copy':
        await copyToClipboard(services.secrets.redactKnown(m.text));
        return undefined;
      case 'insertCode':
        await insertCode(services.secrets.redactKnown(m.code), m.languageId);
        return undefined;
      case 'openCodeInEditor':
        await openCodeInEditor(services.secrets.redactKnown(m.code), m.languageId);
        return undefined;
      case 'openLink':
        return openLink(m.href);
      case 'errorAction':
        if (m.action === 'retry') return s.retry(m.messageId);
        await runErrorAction(m.action);
        return undefined;
      case 'setMode':
        return s.setMode(m.mode);
      case 'approval':
        return agent.answer(m.toolUseId, m.approved)
          ? undefined
          : vscode.l10n.t('That call no longer waits for an answer.');
      case 'change':
        return changeAction(agentHost, m.changeId, m.action);
      case 'changeHunk':
        return hunkAction(agentHost, m.changeId, m.hunk, m.action);
      case 'changesAll':
        if (m.action === 'accept') await agentHost.changes.acceptAll();
        else await agentHost.changes.rejectAll('the user rejected all pending changes');
        return undefined;
      case 'restoreCheckpoint':
        return restore(s, m.messageId);
      case 'actOnPlan':
        return s.actOnPlan(m.messageId);
      case 'openInstructions': {
        const path = s.instructionFile(m.messageId, m.index);
        if (!path) return vscode.l10n.t('That instruction file is no longer listed.');
        await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: true });
        return undefined;
      }
    }
  }

  /** Reverts the workspace to before an agent turn (and every later one), after the user confirms. */
  async function restore(s: SessionController, messageId: string): Promise<string | undefined> {
    if (s.busy) return vscode.l10n.t('A reply is still in progress. Stop it before restoring.');
    const turnId = s.agentTurn(messageId);
    if (!turnId) return vscode.l10n.t('This answer has no checkpoint.');
    const checkpoints = await agentHost.checkpoints.list();
    const index = checkpoints.findIndex((c) => c.turnId === turnId);
    if (index < 0) return vscode.l10n.t('Nothing to restore: this turn changed no files, or it was already restored.');
    const later = checkpoints.length - 1 - index;
    const restoreLabel = vscode.l10n.t('Restore');
    const detail =
      later === 0
        ? vscode.l10n.t(
            'Files this agent turn changed go back to their previous content; files it created are deleted.',
          )
        : later === 1
          ? vscode.l10n.t(
              'Files this agent turn and the later turn changed go back to their previous content; files they created are deleted.',
            )
          : vscode.l10n.t(
              'Files this agent turn and the {0} later turns changed go back to their previous content; files they created are deleted.',
              later,
            );
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Restore the workspace to before this agent turn?'),
      { modal: true, detail },
      restoreLabel,
    );
    if (choice !== restoreLabel) return undefined;
    const report = await agentHost.checkpoints.restore(turnId);
    s.markRestored(messageId);
    agent.rememberFilesWritten(s.store.active.id);
    const failed = report.files.filter((f) => f.action === 'failed');
    const restored = report.files.length - failed.length;
    const summary =
      restored === 1
        ? vscode.l10n.t('Restored 1 file to before the turn.')
        : vscode.l10n.t('Restored {0} files to before the turn.', restored);
    const failures = failed
      .map((f) => `${vscode.workspace.asRelativePath(vscode.Uri.parse(f.uri))}${f.message ? ` (${f.message})` : ''}`)
      .join('; ');
    if (failed.length > 0)
      void vscode.window.showWarningMessage(
        `${summary} ${vscode.l10n.t('{0} could not be restored: {1}', failed.length, failures)}`,
      );
    else void vscode.window.showInformationMessage(summary);
    return undefined;
  }
}
