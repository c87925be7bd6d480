// Pure: catalog models → the model information VS Code shows in its model picker.
// GET /v1/models promises only `id`; every other field is optional and read only when it has the right type.
import { modelVision } from '../catalog/vision';
import type { ModelInfo } from '../gateway/types';

/** Same shape as VS Code's LanguageModelChatInformation (src/lm/host/lmApi.ts), declared here to stay pure. */
export interface ChatModelInformation {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly tooltip?: string;
  readonly detail?: string;
  readonly capabilities: { readonly imageInput?: boolean; readonly toolCalling?: boolean | number };
}

/** Used when the model list says nothing about the context window (the gateway's list rarely does). */
export const DEFAULT_MAX_INPUT_TOKENS = 128_000;

const DATE_SUFFIX = /-(\d{8}|\d{4}-\d{2}-\d{2})$/;

function numberField(raw: ModelInfo, ...names: string[]): number | undefined {
  for (const name of names) {
    const value = raw[name];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.floor(value);
  }
  return undefined;
}

function stringField(raw: ModelInfo, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = raw[name];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

/** Family = the id without a trailing date or "-latest" (so "claude-x-20250101" and "claude-x" share one). */
export function familyOf(id: string): string {
  return id.replace(/-latest$/, '').replace(DATE_SUFFIX, '');
}

/** Version = the id's date suffix when it has one, else "latest". */
export function versionOf(id: string): string {
  return DATE_SUFFIX.exec(id)?.[1] ?? 'latest';
}

export interface ModelInfoOptions {
  /** max_tokens sent per answer (the modelGateway.chat.maxTokens setting) when the list gives no limit. */
  maxOutputTokens: number;
  /** Name of the active key (never the secret), shown in the tooltip. */
  keyName?: string;
  /** modelGateway.models.vision (id → reads images), where the model list does not say. */
  vision?: Readonly<Record<string, boolean>>;
}

export function toChatInformation(
  model: { id: string; raw: ModelInfo },
  options: ModelInfoOptions,
): ChatModelInformation {
  const maxOutputTokens = numberField(model.raw, 'max_output_tokens', 'max_tokens') ?? options.maxOutputTokens;
  const contextWindow = numberField(model.raw, 'context_window', 'context_length');
  const maxInputTokens =
    numberField(model.raw, 'max_input_tokens') ??
    (contextWindow !== undefined ? Math.max(1, contextWindow - maxOutputTokens) : DEFAULT_MAX_INPUT_TOKENS);
  const keyNote = options.keyName ? ` with the key "${options.keyName}"` : '';
  return {
    id: model.id,
    name: stringField(model.raw, 'display_name', 'name') ?? model.id,
    family: familyOf(model.id),
    version: versionOf(model.id),
    maxInputTokens,
    maxOutputTokens,
    detail: 'Model Gateway',
    tooltip: `${model.id} through Model Gateway${keyNote}`,
    // Tool calls are mapped both ways (tool_use / tool_result); images go to models that read them (catalog/vision.ts).
    capabilities: { toolCalling: true, imageInput: modelVision(model.raw, options.vision).vision },
  };
}
