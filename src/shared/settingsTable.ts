// Every `modelGateway.*` setting in one table: its default and how far a workspace's value is trusted. A cloned
// repository's .vscode/settings.json (or a .code-workspace file) is the repository's words, not the user's, so a
// setting that changes what a request costs, where the key and the user's code go, or what runs without asking is
// read from the user's own settings only. The host reads every setting through src/platform/settings.ts, which
// applies the row's trust; test/unit/shared/settingsTable.test.ts checks the table against package.json and
// docs/security.md. Pure: no `vscode`.

/**
 * `user-only`: workspace and folder values are ignored (the user's value, else the default; package.json gives these
 * `"scope": "application"`, so the Settings editor says so too). `workspace-shown`: a workspace value is honoured
 * only after the user allowed that value for that workspace, in a question that names the file that set it.
 * `workspace-ok`: a workspace value is used as it is (it cannot cost money, send data elsewhere or run anything).
 */
export type SettingTrust = 'user-only' | 'workspace-shown' | 'workspace-ok';

/** What a workspace could do with the setting if its value were honoured without asking. */
export type SettingRisk = 'cost' | 'privacy' | 'destination' | 'code execution' | 'none';

export interface SettingRow {
  /** Relative to `modelGateway.`. */
  readonly key: string;
  /** As package.json declares it (null when it declares none). */
  readonly default: unknown;
  readonly trust: SettingTrust;
  readonly risk: SettingRisk;
  /** Why the trust class is safe (docs/security.md shows it). */
  readonly why: string;
}

const row = (key: string, value: unknown, trust: SettingTrust, risk: SettingRisk, why: string): SettingRow => ({
  key,
  default: value,
  trust,
  risk,
  why,
});

const MODEL_LIST = 'decides which models are offered, so which one a default-less request goes to';

export const SETTINGS_TABLE: readonly SettingRow[] = [
  row('baseUrl', '', 'workspace-shown', 'destination', 'where the key goes: a workspace URL gets no key until allowed'),
  row('versionHeader', 'anthropic-version', 'user-only', 'privacy', 'a header sent with the key on every request'),
  row('version', '2023-06-01', 'user-only', 'privacy', 'a header value sent with the key on every request'),
  row('requestHeaders', {}, 'user-only', 'destination', 'headers can route the request (Portkey, X-Forwarded-Host)'),
  row('chat.defaultModel', '', 'user-only', 'cost', 'picks the model, so the price, of every Ask'),
  row('chat.maxTokens', 4096, 'user-only', 'cost', 'the most output tokens a request may be billed for'),
  row('chat.systemPrompt', '', 'workspace-shown', 'privacy', 'what the model is told first: used only when allowed'),
  row('images.defaultModel', '', 'user-only', 'cost', 'picks the image model, so the price per image'),
  row(
    'images.outputFolder',
    'images',
    'workspace-ok',
    'none',
    'a folder inside the workspace ("..", absolute refused)',
  ),
  row('images.defaultSize', '1024x1024', 'user-only', 'cost', 'the size an image is billed at, and the costly check'),
  row('images.defaultQuality', 'auto', 'user-only', 'cost', 'the quality an image is billed at'),
  row('images.mode', 'async', 'workspace-ok', 'none', 'the same request and price, polled or waited for'),
  row('images.editEncoding', 'json', 'workspace-ok', 'none', 'the same bytes to the same gateway, another encoding'),
  row('images.confirmCostlyRequests', true, 'user-only', 'cost', "the user's safeguard before a costly image"),
  row('images.taskTimeoutMinutes', 30, 'workspace-ok', 'none', 'how long a task is polled (polls are free)'),
  row('requestTimeoutSeconds', 120, 'workspace-ok', 'none', 'a shorter wait never sends again by itself'),
  row('models.cacheMinutes', 60, 'workspace-ok', 'none', 'how often the free model list is fetched'),
  row('models.kindOverrides', {}, 'user-only', 'cost', MODEL_LIST),
  row('models.vision', {}, 'user-only', 'privacy', 'lifts the question before an image goes to a model believed blind'),
  row('models.declared', [], 'user-only', 'cost', MODEL_LIST),
  row('prices', {}, 'user-only', 'cost', 'the prices the user is shown and warned with'),
  row('budget.daily', null, 'user-only', 'cost', "the user's daily spending warning"),
  row('completions.enabled', false, 'user-only', 'privacy', 'sends the code being typed to the gateway, billed'),
  row('completions.model', '', 'user-only', 'cost', 'the model that receives the code, and its price'),
  row(
    'completions.languages',
    { '*': true, plaintext: false, markdown: false, scminput: false },
    'user-only',
    'privacy',
    'which files are sent',
  ),
  row('completions.mode', null, 'user-only', 'cost', 'the request shape per model'),
  row('completions.allowInUntrustedWorkspaces', false, 'user-only', 'privacy', 'completions in a folder not trusted'),
  row('completions.maxFileSizeKB', 512, 'user-only', 'privacy', 'how large a file may be sent from'),
  row('models.dialects', {}, 'user-only', 'destination', 'the wire protocol and route a model is called on'),
  row('models.reasoning', {}, 'user-only', 'cost', 'reasoning tokens are billed output'),
  row('nativeChat.enabled', true, 'user-only', 'cost', "offers the models to VS Code's chat and other extensions"),
  row('agent.defaultModel', '', 'user-only', 'cost', 'picks the model, so the price, of every agent step'),
  row('agent.maxSteps', 25, 'workspace-ok', 'cost', 'a workspace value can only lower it (the smaller one is used)'),
  row('agent.autoApproveWrites', false, 'user-only', 'code execution', 'writes without review'),
  row('agent.commandAllowList', [], 'user-only', 'code execution', 'commands run without asking'),
  row('agent.secretPatterns', [], 'workspace-ok', 'privacy', "a workspace's patterns only add files the agent refuses"),
  row('agent.useInstructionFiles', true, 'user-only', 'privacy', 'what the model is told from files'),
  row('agent.instructions', '', 'user-only', 'privacy', 'what the model is told in every agent request'),
  row('agent.condenseThreshold', 0.8, 'user-only', 'cost', 'when the agent sends an extra (billed) condensing request'),
  row('agent.commandTimeoutSeconds', 300, 'user-only', 'code execution', 'how long a command may run'),
  row(
    'agent.subagents',
    'read-only',
    'user-only',
    'code execution',
    'whether sub-agents run, and whether they may edit',
  ),
  row('agent.subagentModel', '', 'user-only', 'cost', "picks the model, so the price, of every sub-agent's steps"),
  row('agent.maxParallelSubagents', 3, 'user-only', 'cost', 'how many billed sub-agents run at once'),
];

const BY_KEY = new Map(SETTINGS_TABLE.map((r) => [r.key, r]));

/** The row of a key (relative to `modelGateway.`); undefined for a key the table does not know. */
export function settingRow(key: string): SettingRow | undefined {
  return BY_KEY.get(key);
}

/** Keys whose workspace and folder values are never used. */
export const USER_ONLY_KEYS: ReadonlySet<string> = new Set(
  SETTINGS_TABLE.filter((r) => r.trust === 'user-only').map((r) => r.key),
);

/** A setting's values per scope, as `WorkspaceConfiguration.inspect()` reports them. */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The value a setting has under its row's trust: for `user-only` the user's value, else the default (a workspace's
 * is ignored); otherwise the most specific value set (folder, workspace, user, default), as `get()` would return.
 * A key with no row is treated as user-only: a setting added without a row cannot be widened by a repository.
 */
export function valueUnderTrust(key: string, inspected: InspectedSetting | undefined): unknown {
  const r = settingRow(key);
  const fallback = inspected?.defaultValue ?? r?.default ?? undefined;
  if (!r || r.trust === 'user-only') return inspected?.globalValue ?? fallback;
  return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue ?? fallback;
}

/** The workspace or folder value of a user-only setting that was set and is ignored (for a notice); else undefined. */
export function ignoredWorkspaceValue(key: string, inspected: InspectedSetting | undefined): unknown {
  if (settingRow(key)?.trust === 'workspace-ok' || settingRow(key)?.trust === 'workspace-shown') return undefined;
  return inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
}

const HONOURED: Record<SettingTrust, string> = {
  'user-only': 'ignored',
  'workspace-shown': 'only once allowed (asked, file named)',
  'workspace-ok': 'yes',
};

/** The per-setting table of docs/security.md (a unit test keeps the page equal to it). */
export function settingsTableMarkdown(): string {
  const lines = [
    '| Setting | Scope | Workspace value | At stake | Why that is safe |',
    '| --- | --- | --- | --- | --- |',
    ...SETTINGS_TABLE.map(
      (r) =>
        `| \`modelGateway.${r.key}\` | ${r.trust === 'user-only' ? 'application' : 'window'} | ${HONOURED[r.trust]} | ${r.risk} | ${r.why} |`,
    ),
  ];
  return lines.join('\n');
}
