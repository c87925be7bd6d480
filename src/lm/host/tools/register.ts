// Gateway tools for any agent in VS Code's chat (Copilot's agent mode, other extensions, @gateway):
// generate image, edit image, list gateway models. Declared in package.json contributes.languageModelTools,
// implemented here with vscode.lm.registerTool (stable since VS Code 1.95). Registration is cheap; the work
// lives in toolImpl.ts, in the native-chat bundle (src/lm/host/chunk.ts) loaded on the first call, and the image
// runner is asked for only when an image tool runs. Where the running VS Code has no tool API, the tools are
// reported unavailable in the log and nothing throws.
import * as vscode from 'vscode';
import type { ImageRunner } from '../../../images/runner';
import type { Services } from '../../../platform/services';
import { ToolNames } from '../../toolText';

type Impl = Pick<typeof import('../chunk'), 'prepareImage' | 'invokeImage' | 'invokeListModels'>;

type RegisterTool = <T>(name: string, tool: vscode.LanguageModelTool<T>) => vscode.Disposable;

/** vscode.lm.registerTool when the running VS Code has it, else undefined. Never throws. */
export function toolApi(): RegisterTool | undefined {
  const lm = (vscode as { lm?: { registerTool?: unknown } }).lm;
  const register = lm?.registerTool;
  return typeof register === 'function' ? (register.bind(lm) as RegisterTool) : undefined;
}

export function registerGatewayTools(
  services: Services,
  runner: () => ImageRunner,
  impl: () => Impl,
): vscode.Disposable {
  const register = toolApi();
  if (!register) {
    services.log.info(
      `Gateway tools unavailable: VS Code ${vscode.version} has no vscode.lm.registerTool. The rest of the extension works.`,
    );
    return new vscode.Disposable(() => undefined);
  }
  // The runner (the images bundle) is read only by the image tools.
  const deps = {
    services,
    get runner() {
      return runner();
    },
  };
  const image = (kind: 'generation' | 'edit'): vscode.LanguageModelTool<unknown> => ({
    prepareInvocation: (options) => impl().prepareImage(deps, kind, options.input),
    invoke: (options, token) => impl().invokeImage(deps, kind, options.input, token),
  });
  const disposables: vscode.Disposable[] = [];
  try {
    disposables.push(
      register(ToolNames.generateImage, image('generation')),
      register(ToolNames.editImage, image('edit')),
      register(ToolNames.listModels, {
        // Read-only and free: no confirmation.
        prepareInvocation: () => ({ invocationMessage: vscode.l10n.t('Reading the model list of your gateway key') }),
        invoke: () => impl().invokeListModels(deps),
      }),
    );
  } catch (error) {
    // A VS Code that knows the API but refuses the tools (e.g. the contribution is not recognised) must not break activation.
    services.log.warn(
      `Gateway tools unavailable: registering them failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return vscode.Disposable.from(...disposables);
}
