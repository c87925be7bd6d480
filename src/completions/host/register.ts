// Code completion as you type (the completions bundle, dist/features/completions.js): loaded when the user turns
// completions on. Registers the inline provider for the user's files and wires it to the gateway client, the usage
// ledger, the daily budget, the secret rules and the status bar. The logic lives in pure modules (engine.ts,
// gates.ts, promptContext.ts); the wire formats in src/gateway/completion/fim.ts.
import * as vscode from 'vscode';
import { chooseCompletionMode, type CompletionMode } from '../../gateway/completion/completionMode';
import { isGatewayError } from '../../gateway/errors/errors';
import { holdOffAfter, RATE_LIMIT_PROFILES } from '../../gateway/rateLimitPolicy';
import type { Services } from '../../platform/services';
import { readAgentSettings } from '../../agentHost/settings';
import { ignoreFilePatterns } from '../../agentHost/workspaceContext';
import { BUDGET_NOTICE_FRACTION } from '../../usage/budget';
import {
  addLatency,
  COMPLETION_STATS_KEY,
  emptyStats,
  mergeStats,
  statsOf,
  type CompletionStats,
} from '../../shared/completionStats';
import { DisposableStore } from '../../shared/dispose';
import type { Outcome } from '../engine';
import type { GateRefusal, GateSettings } from '../gates';
import { pathHeader, snippetAround, snippetBlock, type Snippet } from '../promptContext';
import { ACCEPTED_COMMAND, factsOf, GatewayInlineProvider } from './provider';
import { recommendedCompletionModel } from '../modelChoice';
import { modeOverride, readCompletionSettings, setEnabled, type CompletionSettings } from './settings';
import { refusalOf } from '../gates';
import type { CompletionStatus } from './status';

const LEARNED_KEY = 'modelGateway.completions.learnedModes';
const RECENT_EDITS = 8;

export interface CompletionsFeature extends vscode.Disposable {
  /** For tests: the engine's counters and the stats. */
  readonly testHooks: Record<string, (...args: unknown[]) => unknown>;
}

export function registerCompletions(services: Services, status: CompletionStatus): CompletionsFeature {
  const store = new DisposableStore();
  let settings: CompletionSettings = readCompletionSettings();
  let secretPatterns: string[] = [];
  let budgetReached = false;
  let snoozedUntil = 0;
  const stats: CompletionStats = statsOf(services.context.globalState.get(COMPLETION_STATS_KEY));
  // Counted here since the last save: added to what the other windows stored (globalState is one per machine).
  let unsaved = emptyStats();
  const count = (field: 'shown' | 'accepted' | 'withoutRequest'): void => {
    stats[field]++;
    unsaved[field]++;
  };
  const storeStats = (): Thenable<void> => {
    const merged = mergeStats(statsOf(services.context.globalState.get(COMPLETION_STATS_KEY)), unsaved);
    unsaved = emptyStats();
    Object.assign(stats, merged);
    return services.context.globalState.update(COMPLETION_STATS_KEY, merged);
  };
  const recent: Array<{ uri: string; line: number; languageId: string }> = [];
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  const refusals: Partial<Record<GateRefusal, number>> = {};
  // The model whose completions the gateway refused (shown on the status bar until a fill works or the model changes).
  let refusedModel: string | undefined;
  const warned = new Set<string>();

  const saveStats = (): void => {
    saveTimer ??= setTimeout(() => {
      saveTimer = undefined;
      void storeStats();
    }, 2_000);
  };
  const refreshSecrets = async (): Promise<void> => {
    secretPatterns = [...readAgentSettings().secretPatterns, ...(await ignoreFilePatterns())];
  };
  // A 429's wait is the gateway's word about one key at one base URL: another key or gateway starts without it (the
  // user who switches keys because one is rate limited gets completions at once, not after the other key's wait).
  let scope: string | undefined;
  const followScope = async (): Promise<void> => {
    const now = `${(await services.keys.active())?.fingerprint ?? ''}|${services.config.current.baseUrl}`;
    if (now === scope) return;
    const was = scope;
    scope = now;
    if (was === undefined || snoozedUntil <= Date.now()) return;
    snoozedUntil = 0;
    status.setNote('');
    services.log.info(
      'Completions: another key or base URL is active; the wait the gateway asked for (429) is lifted.',
    );
    showState();
  };
  const refreshBudget = async (): Promise<void> => {
    const { budgetUsed } = await services.account.today();
    // The daily budget stops completions first: chat and the agent keep the last part of it.
    budgetReached = budgetUsed >= BUDGET_NOTICE_FRACTION;
    showState();
  };
  const showState = (): void => {
    if (!settings.enabled) status.set({ kind: 'off' });
    else if (!settings.model) status.set({ kind: 'no-model' });
    else if (refusedModel === settings.model) status.set({ kind: 'cannot', model: settings.model });
    else if (budgetReached) status.set({ kind: 'snoozed', why: 'budget' });
    else if (snoozedUntil > Date.now()) status.set({ kind: 'snoozed', why: 'rate-limited', until: snoozedUntil });
    else status.set({ kind: 'on', model: settings.model });
  };
  const gates = (): GateSettings => ({
    ...settings,
    trusted: vscode.workspace.isTrusted,
    secretPatterns,
    budgetReached,
    snoozedUntil,
  });

  const learnedKey = (fingerprint: string, baseUrl: string, model: string): string =>
    `${fingerprint}|${baseUrl}|${model}`;
  const learned = (): Record<string, CompletionMode> =>
    services.context.globalState.get<Record<string, CompletionMode>>(LEARNED_KEY) ?? {};

  const snippetsFor = (document: vscode.TextDocument): string => {
    const snippets: Snippet[] = [];
    const current = document.uri.toString();
    for (const r of [...recent].reverse()) {
      if (r.uri === current || r.languageId !== document.languageId) continue;
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === r.uri);
      // Never outside the workspace, never a secret or ignored file, never an output pane or a diff.
      if (!doc || doc.uri.scheme !== 'file' || !vscode.workspace.getWorkspaceFolder(doc.uri)) continue;
      if (refusalOf(factsOf(doc), { ...gates(), snoozedUntil: 0, budgetReached: false }, 0)) continue;
      snippets.push({
        path: vscode.workspace.asRelativePath(doc.uri, false),
        text: snippetAround(doc.getText(), r.line),
      });
      if (snippets.length >= 3) break;
    }
    return snippetBlock(snippets, document.languageId);
  };

  const provider = new GatewayInlineProvider({
    gates,
    async fetch(site, document, signal) {
      const access = await services.gateway.clientWithKey();
      const complete = access?.client.completeCode?.bind(access.client);
      if (!access || !complete) throw new Error('No gateway client (set a key and a base URL).');
      const { client, key } = access;
      const model = settings.model;
      const lk = learnedKey(key.fingerprint, client.baseUrl, model);
      const decision = chooseCompletionMode(model, { override: modeOverride(settings, model), learned: learned()[lk] });
      const path = document.uri.scheme === 'file' ? vscode.workspace.asRelativePath(document.uri, false) : undefined;
      const header = path ? pathHeader(path, document.languageId) : '';
      const others = snippetsFor(document);
      const remember = (): void => {
        if (learned()[lk] === 'chat') return;
        void services.context.globalState.update(LEARNED_KEY, { ...learned(), [lk]: 'chat' });
        services.log.info(
          `Completions: ${model} uses the chat fill from now on (the gateway refused its fill-in-the-middle route).`,
        );
      };
      const done = await complete(
        {
          model,
          mode: decision.mode,
          allowChatFallback: decision.reason !== 'setting' && decision.mode !== 'chat',
          onFellBack: remember,
          prefix: site.prefix,
          suffix: site.suffix,
          maxTokens: site.maxTokens,
          singleLine: site.singleLine,
          path,
          language: document.languageId,
          // Fill-in-the-middle models read the snippets and the path header as the start of the file.
          context:
            decision.mode === 'chat' ? others || undefined : `${others}${header}`.replace(/\n$/, '') || undefined,
        },
        { signal },
      );
      return done.text;
    },
    onOutcome(outcome: Outcome, shown: boolean) {
      if (outcome.kind === 'fetched') {
        addLatency(stats, outcome.latencyMs);
        addLatency(unsaved, outcome.latencyMs);
      }
      if (shown) {
        count('shown');
        if (outcome.kind === 'cached' || outcome.kind === 'consumed') count('withoutRequest');
      }
      if (outcome.kind === 'failed') onFailure(outcome.error);
      else if (outcome.kind === 'fetched') {
        status.setNote('');
        if (refusedModel !== undefined) {
          refusedModel = undefined;
          showState();
        }
      }
      saveStats();
    },
    onRefused(refusal: GateRefusal) {
      refusals[refusal] = (refusals[refusal] ?? 0) + 1;
      if (refusal === 'snoozed' || refusal === 'budget') showState();
    },
  });

  const onFailure = (error: unknown): void => {
    const holdOff = holdOffAfter(error, RATE_LIMIT_PROFILES.completions);
    if (holdOff !== undefined) {
      // Never slept through while typing: the completion is skipped, the next ones wait for the gateway's time.
      snoozedUntil = Date.now() + holdOff;
      showState();
      status.setNote(vscode.l10n.t('The last completion was skipped: the gateway answered 429 (rate limited).'));
      setTimeout(showState, holdOff + 50);
      return;
    }
    const kind = isGatewayError(error) ? error.kind : 'error';
    status.setNote(vscode.l10n.t('The last completion failed ({0}); see the log.', kind));
    services.log.warn(`Completion failed: ${error instanceof Error ? error.message : String(error)}`);
    // A refusal of the model itself (400/404 after any fallback): every completion would fail the same way. Said on
    // the status bar and, once per model, in a notification that names the setting and a model that can complete.
    if (isGatewayError(error) && (error.kind === 'bad_request' || error.kind === 'not_found') && settings.model) {
      refusedModel = settings.model;
      showState();
      if (!warned.has(settings.model)) {
        warned.add(settings.model);
        void warnCannotComplete(settings.model, error.serverMessage);
      }
    }
  };

  const warnCannotComplete = async (model: string, said: string | undefined): Promise<void> => {
    const other = recommendedCompletionModel(services.catalog.peek()?.models);
    const use = other && other !== model ? vscode.l10n.t('Use {0}', other) : undefined;
    const turnOff = vscode.l10n.t('Turn Off');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Model Gateway: code completion cannot work with {0}: the gateway refused it ({1}). Choose a coder or a fast chat model in modelGateway.completions.model.',
        model,
        (said ?? '').replace(/[.\s]+$/, '') || vscode.l10n.t('no reason given'),
      ),
      ...(use ? [use] : []),
      turnOff,
    );
    if (choice === turnOff) await setEnabled(false);
    else if (use && choice === use) await setEnabled(true, other);
  };

  store.add(
    vscode.languages.registerInlineCompletionItemProvider([{ scheme: 'file' }, { scheme: 'untitled' }], provider),
  );
  store.add(
    vscode.commands.registerCommand(ACCEPTED_COMMAND, () => {
      count('accepted');
      provider.engine.clearShown();
      saveStats();
    }),
  );
  store.add(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('modelGateway.completions')) {
        settings = readCompletionSettings();
        refusedModel = undefined;
        if (!settings.enabled) provider.engine.cancel();
        showState();
      }
      if (e.affectsConfiguration('modelGateway.agent.secretPatterns')) void refreshSecrets();
      if (e.affectsConfiguration('modelGateway.budget')) void refreshBudget();
    }),
  );
  store.add(
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.scheme !== 'file' || e.contentChanges.length === 0) return;
      const uri = e.document.uri.toString();
      const at = recent.findIndex((r) => r.uri === uri);
      if (at >= 0) recent.splice(at, 1);
      recent.push({ uri, line: e.contentChanges[0].range.start.line, languageId: e.document.languageId });
      if (recent.length > RECENT_EDITS) recent.shift();
    }),
  );
  store.add(
    vscode.workspace.onDidSaveTextDocument((d) => {
      if (d.uri.path.endsWith('/.modelgatewayignore')) void refreshSecrets();
    }),
  );
  store.add(vscode.workspace.onDidGrantWorkspaceTrust(() => showState()));
  store.add(services.account.onDidChange(() => void refreshBudget()));
  store.add(services.keys.onDidChange(() => void followScope()));
  store.add(services.config.onDidChange(() => void followScope()));
  void followScope();
  void refreshSecrets();
  void refreshBudget();
  showState();
  store.add({
    dispose: () => {
      provider.engine.cancel();
      if (saveTimer) clearTimeout(saveTimer);
      void storeStats();
    },
  });
  return {
    testHooks: {
      completionCounts: () => ({ ...provider.engine.counts }),
      completionStats: () => ({ ...stats, latencies: stats.latencies.length }),
      completionStatusText: () => status.text,
      completionRefusals: () => ({ ...refusals }),
      forgetLearnedCompletionModes: () => services.context.globalState.update(LEARNED_KEY, undefined),
      learnedCompletionModes: () => learned(),
    },
    dispose: () => store.dispose(),
  };
}
