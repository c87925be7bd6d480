// STUB: replaced by the native-chat feature's owner.
import * as vscode from 'vscode';
import type { ImageJobs, Services } from '../platform/services';

export function registerNativeChat(_services: Services, _images: ImageJobs): vscode.Disposable {
  return new vscode.Disposable(() => undefined);
}
