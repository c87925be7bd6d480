// STUB (owned by the platform helper): builds the Services of src/platform/services.ts.
import * as vscode from 'vscode';
import type { Services } from './services';

export function createServices(_context: vscode.ExtensionContext): Services & vscode.Disposable {
  throw new Error('createServices: not implemented yet');
}
