// The LanguageModelChatProvider for vendor 'model-gateway': the chat models of the active key, offered
// to VS Code's chat and to other extensions through vscode.lm (VS Code 1.104+). Registered at activation, it
// answers the model list itself (VS Code asks early, for its model picker); a request and a token count load the
// native-chat bundle, whose response.ts does the work.
import * as vscode from 'vscode';
import { Commands } from '../../shared/commands';
import type { Services } from '../../platform/services';
import { Disposable } from '../../shared/dispose';
import type {
  LanguageModelChatInformation,
  LanguageModelChatProvider,
  LanguageModelChatRequestMessage,
  PrepareLanguageModelChatModelOptions,
} from './lmApi';
import { toChatInformation } from '../modelInfo';

/** What the provider asks of the native-chat bundle (src/lm/host/chunk.ts). */
export type ResponsePath = Pick<typeof import('./chunk'), 'provideChatResponse' | 'countTokens' | 'ModelCalibrations'>;

export class GatewayChatProvider extends Disposable implements LanguageModelChatProvider, vscode.Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** Each model's token-count calibration (this provider's, made with the bundle on first use). */
  private calibrations: InstanceType<ResponsePath['ModelCalibrations']> | undefined;
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(
    private readonly services: Services,
    private readonly chunk: () => ResponsePath,
  ) {
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
    const vision = this.services.config.current.modelVision;
    return models.map((m) => toChatInformation(m, { maxOutputTokens, keyName: key?.name, vision }));
  }

  private async chatModels(silent: boolean): Promise<Array<{ id: string; raw: { id: string } }>> {
    // VS Code asks again after each onDidChangeLanguageModelChatInformation, which a catalog fetch fires:
    // answer from the cache whenever there is one, so that asking never causes another fetch.
    const cached = this.services.catalog.peek();
    if (cached) return cached.models.filter((m) => m.kind === 'chat');
    try {
      return await this.services.catalog.chatModels();
    } catch (error) {
      // The logger formats and redacts the error; describing it in words would load the native-chat bundle at startup.
      this.services.log.warn('Native chat: the model list could not be fetched:', error);
      if (!silent) void this.services.errors.show(error, 'models');
      // Offer what was listed before rather than nothing (the list is authoritative, but only the network failed).
      return this.services.catalog.peek()?.models.filter((m) => m.kind === 'chat') ?? [];
    }
  }

  /** VS Code's request (model, messages, options, progress, token), passed as it came to the bundle (response.ts). */
  async provideLanguageModelChatResponse(
    ...request: Parameters<LanguageModelChatProvider['provideLanguageModelChatResponse']>
  ): Promise<void> {
    return this.chunk().provideChatResponse(this.services, this.calibrated(), ...request);
  }

  async provideTokenCount(
    model: LanguageModelChatInformation,
    text: string | LanguageModelChatRequestMessage,
  ): Promise<number> {
    return this.chunk().countTokens(this.calibrated(), model.id, text);
  }

  private calibrated(): InstanceType<ResponsePath['ModelCalibrations']> {
    return (this.calibrations ??= new (this.chunk().ModelCalibrations)());
  }
}
