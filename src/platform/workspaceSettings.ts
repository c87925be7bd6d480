// A repository's settings are the repository's words. Besides the base URL (workspaceBaseUrl.ts), a workspace can set
// `modelGateway.chat.systemPrompt`, which is what the model is told first: a cloned repository could tell it to ask
// for the key. So a workspace system prompt is used only after the user allowed it for that workspace, every prompt
// that asks names the file that set the value, and a Cancel leaves words that say what happened. Pure: no `vscode`.
import { english, type Localizer } from '../shared/l10n';

/** The raw values of `modelGateway.chat.systemPrompt` per scope, as `inspect()` reports them. */
export interface SystemPromptSources {
  user?: unknown;
  workspace?: unknown;
  folder?: unknown;
}

/** The workspace's (or a folder's) system prompt when it is set and differs from the user's own; else undefined. */
export function workspaceSystemPromptToAllow(sources: SystemPromptSources): string | undefined {
  const user = typeof sources.user === 'string' ? sources.user : '';
  for (const v of [sources.folder, sources.workspace]) {
    if (typeof v === 'string' && v.trim() !== '' && v !== user) return v;
  }
  return undefined;
}

/**
 * The file whose settings the prompts name: the `.code-workspace` file of a multi-root workspace (its settings are the
 * workspace's), else the folder's `.vscode/settings.json`. `workspaceFile` is its path or URI text when one is open.
 */
export function workspaceSettingsFile(workspaceFile: string | undefined, fromFolder = false): string {
  if (workspaceFile && !fromFolder) {
    const name = workspaceFile.split(/[\\/]/).pop() ?? workspaceFile;
    return /^untitled:/i.test(workspaceFile) ? 'the untitled workspace' : name;
  }
  return '.vscode/settings.json';
}

/**
 * The buttons of a consent prompt in the order they are shown: the safe choice first (a modal dialog's first button
 * is its default, and Enter must not send the key or change what the model is told), the allowance last.
 */
export function consentButtons<T>(safe: T, allow: T): T[] {
  return [safe, allow];
}

/** Why a chat cannot be sent, when the workspace's base URL waits for (or was refused) the user's allowance. */
export function accessProblem(
  config: { workspaceBaseUrlToAllow?: string; workspaceSettingsFile?: string },
  l10n: Localizer = english,
): string {
  if (config.workspaceBaseUrlToAllow)
    return l10n.t(
      'The base URL {0} from this workspace ({1}) was not allowed, so nothing was sent. Send again to allow it, or remove it from {1} to use your own.',
      config.workspaceBaseUrlToAllow,
      config.workspaceSettingsFile ?? '.vscode/settings.json',
    );
  return l10n.t('No API key or base URL is configured.');
}
