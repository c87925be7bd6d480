// activate(): wiring only. Each feature registers itself and returns what it must dispose.
import * as vscode from 'vscode';
import { createServices } from './platform';
import { registerKeys } from './keys/register';
import { registerDiagnostics } from './diagnostics/register';
import { registerChat } from './chat/register';
import { registerImages } from './images/register';
import { registerNativeChat } from './lm/register';

export function activate(context: vscode.ExtensionContext): void {
  const services = createServices(context);
  const images = registerImages(services);
  context.subscriptions.push(
    services,
    registerKeys(services),
    registerDiagnostics(services),
    registerChat(services),
    images,
    registerNativeChat(services, images.jobs),
  );
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
