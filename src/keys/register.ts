// STUB: replaced by the feature's owner.
import * as vscode from 'vscode';
import type { Services } from '../platform/services';

export function registerKeys(_services: Services): vscode.Disposable {
  return new vscode.Disposable(() => undefined);
}
