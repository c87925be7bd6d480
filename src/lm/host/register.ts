// Native chat: gateway models in VS Code's own chat (vendor 'model-gateway', VS Code 1.104+), the
// @gateway participant and the management command. On a VS Code without the provider API nothing is
// registered for it and nothing throws: the rest of the extension works as before.
// Only thin stubs are registered here: the model provider answers the model list itself (VS Code asks for it
// early) and the management command's quick pick is small; the participant's handler and the agent, the
// provider's responses and token counts live in the native-chat bundle (src/lm/host/chunk.ts, dist/features/lm.js),
// loaded on their first use.
import * as vscode from 'vscode';
import { Commands, Views } from '../../shared/commands';
import type { CommandTable } from '../../platform/commands';
import type { ImageJobs, Services } from '../../platform/services';
import { nativeChatApi } from './lmApi';
import { showManageQuickPick } from './manage';
import { GatewayChatProvider } from './provider';

type Chunk = typeof import('./chunk');

/** Registers the provider while modelGateway.nativeChat.enabled is on; re-checks on every settings change. */
function registerProviderWhileEnabled(services: Services, chunk: () => Chunk): vscode.Disposable {
  const register = nativeChatApi();
  if (!register) {
    services.log.info(
      `Native chat models unavailable: VS Code ${vscode.version} has no vscode.lm.registerLanguageModelChatProvider (needs 1.104+). @gateway and the rest of the extension work.`,
    );
    return new vscode.Disposable(() => undefined);
  }
  let active: vscode.Disposable | undefined;
  const sync = (): void => {
    const enabled = services.config.current.nativeChatEnabled;
    if (enabled && !active) {
      try {
        const provider = new GatewayChatProvider(services, chunk);
        const registration = register(Views.lmVendor, provider);
        active = vscode.Disposable.from(registration, provider);
        services.log.info('Native chat: gateway models offered to VS Code chat (vendor model-gateway).');
      } catch (error) {
        services.log.error(
          `Native chat: registering the model provider failed: ${error instanceof Error ? error.message : String(error)}`,
        );
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

/** The @gateway participant; its handler (and the agent) load with the bundle on the first request. */
function registerParticipant(services: Services, images: ImageJobs, chunk: () => Chunk): vscode.Disposable {
  const chat = (vscode as { chat?: { createChatParticipant?: unknown } }).chat;
  if (typeof chat?.createChatParticipant !== 'function') return new vscode.Disposable(() => undefined);
  let handler: vscode.ChatRequestHandler | undefined;
  const load = (): vscode.ChatRequestHandler => {
    if (handler) return handler;
    const loaded = chunk();
    const unavailable = loaded.agentUnavailableReason();
    services.log.info(
      unavailable
        ? `@gateway agent (# tools) unavailable: ${unavailable}`
        : '@gateway agent available: tools attached with # run as an agent turn.',
    );
    return (handler = loaded.createParticipantHandler(services, images));
  };
  const participant = vscode.chat.createChatParticipant(Views.chatParticipant, (request, context, stream, token) =>
    load()(request, context, stream, token),
  );
  participant.iconPath = new vscode.ThemeIcon('sparkle');
  return participant;
}

export interface NativeChatFeature extends vscode.Disposable {
  readonly commands: CommandTable<'nativeChat'>;
}

export function registerNativeChat(services: Services, images: ImageJobs, chunk: () => Chunk): NativeChatFeature {
  const available = nativeChatApi() !== undefined;
  const manageLanguageModels = () => showManageQuickPick(services, available);
  const disposables = vscode.Disposable.from(
    registerParticipant(services, images, chunk),
    registerProviderWhileEnabled(services, chunk),
  );
  return { commands: { [Commands.manageLanguageModels]: manageLanguageModels }, dispose: () => disposables.dispose() };
}
