// What code completion costs at activation: the status bar entry, the toggle command and the one-time offer. The
// provider and everything it uses are the completions bundle, loaded only once the user turned completions on.
import * as vscode from 'vscode';
import type { CommandTable } from '../../platform/commands';
import type { CatalogSnapshot, Services } from '../../platform/services';
import { Commands } from '../../shared/commands';
import { DisposableStore } from '../../shared/dispose';
import { recommendedCompletionModel } from '../modelChoice';
import { readCompletionSettings, setEnabled } from './settings';
import { CompletionStatus } from './status';

const OFFERED_KEY = 'modelGateway.completions.offered';

/** The model to suggest from a key's list (modelChoice.ts): a coder model, else a fast chat model; never a reasoner. */
export function recommendedModel(snapshot: CatalogSnapshot | undefined): string | undefined {
  return recommendedCompletionModel(snapshot?.models);
}

export interface CompletionsStub extends vscode.Disposable {
  commands: CommandTable<'completions'>;
  status: CompletionStatus;
}

/** `load` loads the bundle and registers the provider (once). */
export function registerCompletionsStub(services: Services, load: (status: CompletionStatus) => void): CompletionsStub {
  const store = new DisposableStore();
  const status = store.add(new CompletionStatus());
  const loadIfOn = (): void => {
    if (readCompletionSettings().enabled) load(status);
  };
  store.add(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('modelGateway.completions')) loadIfOn();
    }),
  );
  // The offer: once per machine, after the first model list of a key arrived (that is, a key that works).
  store.add(
    services.catalog.onDidChange((snapshot) => {
      if (services.context.globalState.get(OFFERED_KEY) || readCompletionSettings().enabled) return;
      const model = recommendedModel(snapshot);
      if (!model) return;
      void services.context.globalState.update(OFFERED_KEY, true);
      void offer(model);
    }),
  );
  loadIfOn();
  const commands: CommandTable<'completions'> = {
    [Commands.toggleCompletions]: async () => {
      const settings = readCompletionSettings();
      if (settings.enabled) return setEnabled(false);
      const model =
        settings.model ||
        recommendedModel(services.catalog.peek() ?? (await services.catalog.get().catch(() => undefined)));
      await setEnabled(true, settings.model ? undefined : model);
    },
  };
  return { commands, status, dispose: () => store.dispose() };
}

async function offer(model: string): Promise<void> {
  const turnOn = vscode.l10n.t('Turn On');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Your gateway can complete code as you type. Turn code completion on with {0}?', model),
    { detail: vscode.l10n.t('Each completion is a small billed request; they appear separately in Show Usage.') },
    turnOn,
    vscode.l10n.t('Not Now'),
  );
  if (choice === turnOn) await setEnabled(true, model);
}
