// STUB: replaced by the images feature's owner.
import * as vscode from 'vscode';
import type { ImageJobs, Services } from '../platform/services';

export function registerImages(_services: Services): vscode.Disposable & { jobs: ImageJobs } {
  const jobs: ImageJobs = { generate: () => Promise.reject(new Error('images: not implemented yet')) };
  return Object.assign(new vscode.Disposable(() => undefined), { jobs });
}
