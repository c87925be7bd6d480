// The status bar entry of code completion: on (the model), off, or snoozed (rate limited, daily budget), and what
// the last request did. Created at activation (small); the feature bundle updates it. A click toggles.
import * as vscode from 'vscode';
import { Commands } from '../../shared/commands';

export type CompletionState =
  | { kind: 'off' }
  | { kind: 'on'; model: string }
  | { kind: 'no-model' }
  | { kind: 'snoozed'; why: 'rate-limited' | 'budget'; until?: number }
  /** The gateway refused this model's completions (a 400/404 that no fallback could answer): said on the bar itself. */
  | { kind: 'cannot'; model: string };

export class CompletionStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'modelGateway.completions',
    vscode.StatusBarAlignment.Right,
    99,
  );
  private note = '';
  private tooltipBase = '';
  /** What the entry shows now. */
  state: CompletionState = { kind: 'off' };

  constructor() {
    this.item.name = vscode.l10n.t('Model Gateway Completions');
    this.item.command = Commands.toggleCompletions;
    this.set({ kind: 'off' });
    this.item.show();
  }

  /** A line about the last request (skipped after a 429, failed), shown in the tooltip. */
  setNote(note: string): void {
    this.note = note;
    this.item.tooltip = this.tooltipBase + (note ? `\n${note}` : '');
  }

  set(state: CompletionState): void {
    this.state = state;
    this.item.backgroundColor =
      state.kind === 'cannot' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    switch (state.kind) {
      case 'off':
        this.item.text = '$(circle-slash) ' + vscode.l10n.t('Completions off');
        this.tooltipBase = vscode.l10n.t('Code completion through your gateway is off. Click to turn it on.');
        break;
      case 'no-model':
        this.item.text = '$(sparkle) ' + vscode.l10n.t('Completions: pick a model');
        this.tooltipBase = vscode.l10n.t(
          'Code completion is on but no model is set (modelGateway.completions.model). Click to turn it off.',
        );
        break;
      case 'on':
        this.item.text = `$(sparkle) ${state.model}`;
        this.tooltipBase = vscode.l10n.t('Code completion on with {0}. Click to turn it off.', state.model);
        break;
      case 'cannot':
        this.item.text = '$(warning) ' + vscode.l10n.t('Completions: {0} cannot complete', state.model);
        this.tooltipBase = vscode.l10n.t(
          'The gateway refused code completion with {0}. Choose a coder or a fast chat model in modelGateway.completions.model. Click to turn completion off.',
          state.model,
        );
        break;
      case 'snoozed':
        this.item.text = '$(clock) ' + vscode.l10n.t('Completions snoozed');
        this.tooltipBase =
          state.why === 'budget'
            ? vscode.l10n.t(
                'Completions stopped: most of the daily budget is used (chat keeps the rest). Click to turn them off.',
              )
            : vscode.l10n.t(
                'Completions skipped: the gateway asked to wait (rate limited). They resume by themselves.',
              );
        break;
    }
    this.setNote(this.note);
  }

  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
