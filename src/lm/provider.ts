// The LanguageModelChatProvider for vendor 'model-gateway': the chat models of the active key, offered
// to VS Code's chat and to other extensions through vscode.lm (VS Code 1.104+).
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { GatewayClient } from '../gateway/types';
import type { Services } from '../platform/services';
import { Disposable } from '../shared/dispose';
import type {
  LanguageModelChatInformation,
  LanguageModelChatProvider,
  LanguageModelChatRequestMessage,
  LanguageModelResponsePart,
  PrepareLanguageModelChatModelOptions,
  ProvideLanguageModelChatResponseOptions,
} from './lmApi';
import { languageModelError } from './lmApi';
import { describeForLanguageModel } from './lmErrors';
import { toChatInformation } from './modelInfo';
import { buildMessagesRequest, messageFromVsCode } from './requestMapping';
import { StreamPartMapper, type OutputPart } from './streamMapping';
import { estimateMessageTokens, estimateTextTokens } from './tokens';
import { streamWithCancellation, waitMessage } from './streaming';
import type { WaitNotice } from '../gateway/retry';

function toResponsePart(part: OutputPart): LanguageModelResponsePart {
  return part.kind === 'text'
    ? new vscode.LanguageModelTextPart(part.text)
    : new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
}

export class GatewayChatProvider extends Disposable implements LanguageModelChatProvider, vscode.Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(private readonly services: Services) {
    super();
    const refresh = (): void => this.changed.fire();
    for (const event of [services.catalog.onDidChange, services.keys.onDidChange, services.config.onDidChange])
      this._register(event(refresh));
  }

  async provideLanguageModelChatInformation(
    options: PrepareLanguageModelChatModelOptions,
    token: vscode.CancellationToken,
  ): Promise<LanguageModelChatInformation[]> {
    let key = await this.services.keys.active();
    if (!key && !options.silent) {
      // Not silent: VS Code asked on behalf of the user (e.g. "Manage Models"), so asking for a key is expected.
      const setKey = vscode.l10n.t('Set API Key');
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('Model Gateway needs an API key to list its models.'),
        setKey,
      );
      if (choice === setKey) await vscode.commands.executeCommand(Commands.setApiKey);
      key = await this.services.keys.active();
    }
    if (!key || token.isCancellationRequested) return [];
    const models = await this.chatModels(options.silent);
    const maxOutputTokens = this.services.config.current.chat.maxTokens;
    return models.map((m) => toChatInformation(m, { maxOutputTokens, keyName: key?.name }));
  }

  private async chatModels(silent: boolean): Promise<Array<{ id: string; raw: { id: string } }>> {
    // VS Code asks again after each onDidChangeLanguageModelChatInformation, which a catalog fetch fires:
    // answer from the cache whenever there is one, so that asking never causes another fetch.
    const cached = this.services.catalog.peek();
    if (cached) return cached.models.filter((m) => m.kind === 'chat');
    try {
      return await this.services.catalog.chatModels();
    } catch (error) {
      this.services.log.warn(
        `Native chat: the model list could not be fetched: ${describeForLanguageModel(error).message}`,
      );
      if (!silent) void this.services.errors.show(error, 'models');
      // Offer what was listed before rather than nothing (the list is authoritative, but only the network failed).
      return this.services.catalog.peek()?.models.filter((m) => m.kind === 'chat') ?? [];
    }
  }

  async provideLanguageModelChatResponse(
    model: LanguageModelChatInformation,
    messages: readonly LanguageModelChatRequestMessage[],
    options: ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const client = await this.clientOrThrow();
    const request = buildMessagesRequest({
      model: model.id,
      messages: messages.map((m) => messageFromVsCode({ role: m.role, content: m.content })),
      maxTokens: model.maxOutputTokens,
      tools: options.tools,
      toolMode: options.toolMode,
      modelOptions: options.modelOptions,
    });
    const mapper = new StreamPartMapper();
    const wait = new WaitProgress();
    try {
      await streamWithCancellation(
        client,
        request,
        token,
        (event) => {
          for (const part of mapper.push(event)) progress.report(toResponsePart(part));
        },
        (notice) => wait.show(notice),
      );
    } catch (error) {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      throw await this.toLanguageModelError(error, client);
    } finally {
      wait.end();
    }
  }

  async provideTokenCount(
    _model: LanguageModelChatInformation,
    text: string | LanguageModelChatRequestMessage,
  ): Promise<number> {
    if (typeof text === 'string') return estimateTextTokens(text);
    return estimateMessageTokens(messageFromVsCode({ role: text.role, content: text.content }));
  }

  private async clientOrThrow(): Promise<GatewayClient> {
    const client = await this.services.gateway.client();
    if (client) return client;
    const { baseUrlProblem } = this.services.config.current;
    throw languageModelError(
      'NoPermissions',
      baseUrlProblem
        ? vscode.l10n.t('Model Gateway cannot be used: {0}', baseUrlProblem)
        : vscode.l10n.t('Model Gateway has no API key. Set one with "Model Gateway: Set API Key".'),
    );
  }

  private async toLanguageModelError(error: unknown, client: GatewayClient): Promise<Error> {
    const secret = await this.services.keys.activeSecret().catch(() => undefined);
    const { code, message } = describeForLanguageModel(error, { baseUrl: client.baseUrl, secret });
    this.services.log.warn(`Native chat request failed (${code}): ${message}`);
    // The chat shows the error to the user: in the display language (the log above stays English).
    return languageModelError(
      code,
      describeForLanguageModel(error, { baseUrl: client.baseUrl, secret, l10n: vscode.l10n }).message,
    );
  }
}

/**
 * A wait before the request goes out (429 Retry-After) as a status-bar progress with a countdown: the
 * response stream of a model provider carries only the answer, and the chat's stop button cancels.
 */
class WaitProgress {
  private finish: (() => void) | undefined;

  show(notice: WaitNotice): void {
    this.end();
    if (notice.ms <= 0) return;
    // Settled independently of when withProgress runs its task, so a quick end() never leaves it open.
    let settle: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (settle = resolve));
    this.finish = settle;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Model Gateway' },
      (progress) => {
        const tick = (): void =>
          progress.report({ message: waitMessage({ ...notice, ms: notice.until - Date.now() }, vscode.l10n) });
        tick();
        const timer = setInterval(tick, 1000);
        return done.finally(() => clearInterval(timer));
      },
    );
  }

  end(): void {
    this.finish?.();
    this.finish = undefined;
  }
}
