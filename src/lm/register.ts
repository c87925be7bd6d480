// Native chat: gateway models in VS Code's own chat (vendor 'model-gateway', VS Code 1.104+), the
// @gateway participant and the management command. On a VS Code without the provider API nothing is
// registered for it and nothing throws: the rest of the extension works as before.
import * as vscode from 'vscode';
import { Commands, Views } from '../shared/commands';
import type { ImageJobs, Services } from '../platform/services';
import { nativeChatApi } from './lmApi';
import { showManageQuickPick } from './manage';
import { registerParticipant } from './participant';
import { GatewayChatProvider } from './provider';

/** Registers the provider while modelGateway.nativeChat.enabled is on; re-checks on every settings change. */
function registerProviderWhileEnabled(services: Services): vscode.Disposable {
  const register = nativeChatApi();
  if (!register) {
    services.log.info(`Native chat models unavailable: VS Code ${vscode.version} has no vscode.lm.registerLanguageModelChatProvider (needs 1.104+). @gateway and the rest of the extension work.`);
    return new vscode.Disposable(() => undefined);
  }
  let active: vscode.Disposable | undefined;
  const sync = (): void => {
    const enabled = services.config.current.nativeChatEnabled;
    if (enabled && !active) {
      try {
        const provider = new GatewayChatProvider(services);
        const registration = register(Views.lmVendor, provider);
        active = vscode.Disposable.from(registration, provider);
        services.log.info('Native chat: gateway models offered to VS Code chat (vendor model-gateway).');
      } catch (error) {
        services.log.error(`Native chat: registering the model provider failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    } else if (!enabled && active) {
      active.dispose();
      active = undefined;
      services.log.info('Native chat: gateway models withdrawn (modelGateway.nativeChat.enabled is off).');
    }
  };
  sync();
  const listener = services.config.onDidChange(sync);
  return new vscode.Disposable(() => {
    listener.dispose();
    active?.dispose();
  });
}

export function registerNativeChat(services: Services, images: ImageJobs): vscode.Disposable {
  const available = nativeChatApi() !== undefined;
  return vscode.Disposable.from(
    vscode.commands.registerCommand(Commands.manageLanguageModels, () => showManageQuickPick(services, available)),
    registerParticipant(services, images),
    registerProviderWhileEnabled(services),
  );
}
