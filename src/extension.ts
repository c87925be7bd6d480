// activate(): wiring only. Each feature registers itself and returns what it must dispose.
import * as vscode from 'vscode';
import { createServices } from './services';
import { registerKeys } from './keys/register';
import { registerDiagnostics } from './diagnostics/register';
import { registerChat } from './chat/register';
import { registerImages } from './images/register';
import { registerNativeChat } from './lm/register';
import { registerGatewayTools } from './lm/tools/register';

export function activate(context: vscode.ExtensionContext): void {
  // Activation time is shared with every other extension: each part is timed and the total is logged.
  const timings: string[] = [];
  const timed = <T>(name: string, register: () => T): T => {
    const started = performance.now();
    const result = register();
    timings.push(`${name} ${(performance.now() - started).toFixed(1)}`);
    return result;
  };
  const started = performance.now();
  const services = timed('services', () => createServices(context));
  const images = timed('images', () => registerImages(services));
  context.subscriptions.push(
    services,
    timed('keys', () => registerKeys(services)),
    timed('diagnostics', () => registerDiagnostics(services)),
    timed('chat', () => registerChat(services)),
    images,
    timed('nativeChat', () => registerNativeChat(services, images.jobs)),
    timed('tools', () => registerGatewayTools(services, images.runner)),
  );
  services.log.info(`Activated in ${(performance.now() - started).toFixed(1)} ms (${timings.join(', ')}).`);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
