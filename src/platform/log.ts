// The Logger adapter: a LogOutputChannel "Model Gateway" that redacts every line, always.
import * as vscode from 'vscode';
import { formatLogArgs, redact } from './redact';
import type { HostLogger } from './services';

/** `secrets`: read at each line (the services' SecretRegistry: every stored key and secret header value). */
export function createLogger(name = 'Model Gateway', secrets?: () => Iterable<string>): HostLogger {
  const channel = vscode.window.createOutputChannel(name, { log: true });
  let known: string[] = [];
  const line = (message: string, args: unknown[]): string =>
    redact(args.length ? `${message} ${formatLogArgs(args)}` : message, [...known, ...(secrets?.() ?? [])]);
  return {
    debug: (message, ...args) => channel.debug(line(message, args)),
    info: (message, ...args) => channel.info(line(message, args)),
    warn: (message, ...args) => channel.warn(line(message, args)),
    error: (message, ...args) => channel.error(line(message, args)),
    show: () => channel.show(true),
    setKnownSecrets: (secrets) => {
      known = [...secrets].filter((secret) => secret.length >= 4);
    },
    dispose: () => channel.dispose(),
  };
}
