// The subset of VS Code's Language Model Chat Provider API (stable since VS Code 1.104) that this
// extension uses. The project compiles against @types/vscode 1.100 on purpose (engines ^1.100.0), where
// these declarations do not exist yet, so they are mirrored here from the 1.104 `vscode.d.ts` and the
// function is looked up at runtime (see nativeChatApi()). The part classes (LanguageModelTextPart,
// LanguageModelToolCallPart, LanguageModelToolResultPart, LanguageModelError) are in 1.100 already.
import * as vscode from 'vscode';

/** Mirrors vscode.LanguageModelChatInformation (1.104). */
export interface LanguageModelChatInformation {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly tooltip?: string;
  readonly detail?: string;
  readonly version: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: {
    readonly imageInput?: boolean;
    readonly toolCalling?: boolean | number;
  };
}

/** Mirrors vscode.PrepareLanguageModelChatModelOptions (1.104). */
export interface PrepareLanguageModelChatModelOptions {
  /** True: resolve without any UI (no prompts for keys). */
  readonly silent: boolean;
}

/** Mirrors vscode.LanguageModelChatRequestMessage (1.104). */
export interface LanguageModelChatRequestMessage {
  readonly role: vscode.LanguageModelChatMessageRole;
  readonly content: ReadonlyArray<
    vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart | vscode.LanguageModelToolCallPart | unknown
  >;
  readonly name: string | undefined;
}

/** Mirrors vscode.ProvideLanguageModelChatResponseOptions (1.104). */
export interface ProvideLanguageModelChatResponseOptions {
  readonly modelOptions?: { readonly [name: string]: unknown };
  readonly tools?: readonly vscode.LanguageModelChatTool[];
  readonly toolMode: vscode.LanguageModelChatToolMode;
}

/** Mirrors vscode.LanguageModelResponsePart (1.104). */
export type LanguageModelResponsePart =
  vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart | vscode.LanguageModelToolCallPart;

/** Mirrors vscode.LanguageModelChatProvider (1.104). */
export interface LanguageModelChatProvider<T extends LanguageModelChatInformation = LanguageModelChatInformation> {
  readonly onDidChangeLanguageModelChatInformation?: vscode.Event<void>;
  provideLanguageModelChatInformation(
    options: PrepareLanguageModelChatModelOptions,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<T[]>;
  provideLanguageModelChatResponse(
    model: T,
    messages: readonly LanguageModelChatRequestMessage[],
    options: ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Thenable<void>;
  provideTokenCount(
    model: T,
    text: string | LanguageModelChatRequestMessage,
    token: vscode.CancellationToken,
  ): Thenable<number>;
}

/** Mirrors `vscode.lm.registerLanguageModelChatProvider` (1.104). */
export type RegisterLanguageModelChatProvider = (
  vendor: string,
  provider: LanguageModelChatProvider,
) => vscode.Disposable;

/** The register function when the running VS Code has it (1.104+), else undefined. Never throws. */
export function nativeChatApi(): RegisterLanguageModelChatProvider | undefined {
  const lm = (vscode as { lm?: { registerLanguageModelChatProvider?: unknown } }).lm;
  const register = lm?.registerLanguageModelChatProvider;
  return typeof register === 'function' ? (register.bind(lm) as RegisterLanguageModelChatProvider) : undefined;
}

/** Builds a LanguageModelError with a code (the d.ts of 1.100 only declares the static factories). */
export function languageModelError(
  code: 'NoPermissions' | 'NotFound' | 'Blocked' | 'Unknown',
  message: string,
): vscode.LanguageModelError {
  switch (code) {
    case 'NoPermissions':
      return vscode.LanguageModelError.NoPermissions(message);
    case 'NotFound':
      return vscode.LanguageModelError.NotFound(message);
    case 'Blocked':
      return vscode.LanguageModelError.Blocked(message);
    default:
      return new vscode.LanguageModelError(message);
  }
}
