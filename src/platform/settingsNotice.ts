// Says once per window that a setting is outside its bounds and which value is used instead (see settingBounds.ts).
import * as vscode from 'vscode';
import { OnceNotices, type ClampedSetting } from '../shared/settingBounds';

const notices = new OnceNotices();

export function sayClampedSettings(list: readonly ClampedSetting[] | undefined): void {
  for (const c of notices.fresh(list ?? [])) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The setting modelGateway.{0} is {1}, outside its range ({2} to {3}): {4} is used.',
        c.key,
        c.value,
        c.min,
        c.max,
        c.used,
      ),
    );
  }
}
