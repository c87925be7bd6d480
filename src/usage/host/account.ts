// The account service (src/platform/services.ts AccountService): the balance through BalanceMemory, the cost of a
// response through the price resolution, the ledger file, and the daily budget's 80 % notice. Prices and the budget
// are read from user settings only (a repository's settings must not change what the user is shown as money).
import * as vscode from 'vscode';
import { BalanceMemory, mergeBalanceEntries, type Balance, type BalanceEntry } from '../../gateway/balance';
import {
  billedCostOf,
  gatewayPricesOf,
  parsePriceTable,
  resolveCost,
  tokenCountsOf,
  type Cost,
} from '../../gateway/pricing';
import type { UsageRecord } from '../../gateway/types';
import type {
  AccountService,
  ConfigService,
  GatewayAccess,
  HostLogger,
  KeyStore,
  ModelCatalog,
} from '../../platform/services';
import { dayOf, todayOf, type LedgerEntry } from '../../shared/usageLedger';
import { BUDGET_NOTICE_FRACTION, budgetUsed, parseBudget, wouldPass } from '../budget';
import { LedgerStore } from '../ledgerStore';
import { gatewaySettings } from '../../platform/settings';

export interface AccountDeps {
  globalStorageUri: vscode.Uri;
  config: ConfigService;
  keys: KeyStore;
  gateway: GatewayAccess;
  catalog: ModelCatalog;
  log: HostLogger;
  /** globalState: the last balance per key and base URL, so the status bar has it after a window reload. */
  state?: vscode.Memento;
}

/** Where the balance memory is kept across windows (figures and routes only, per key fingerprint and base URL). */
const BALANCE_STATE_KEY = 'modelGateway.balanceMemory';

/** Local midnight of the day of `time` (the budget's day, as dayOf counts it). */
function startOfDay(time: number): number {
  const d = new Date(time);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

export function createAccountService(deps: AccountDeps): AccountService & vscode.Disposable {
  const saved = deps.state?.get<unknown>(BALANCE_STATE_KEY);
  const loadedAt = Date.now();
  const memory = new BalanceMemory(
    Date.now,
    Array.isArray(saved)
      ? (saved as Array<[string, BalanceEntry]>).filter((e) => Array.isArray(e) && e.length === 2)
      : [],
    // Merged with what other windows stored meanwhile (other keys and base URLs), never written over it.
    (entries) =>
      void Promise.resolve(
        deps.state?.update(
          BALANCE_STATE_KEY,
          mergeBalanceEntries(deps.state.get<unknown>(BALANCE_STATE_KEY), entries, loadedAt),
        ),
      ).catch(() => undefined),
  );
  const store = new LedgerStore(deps.globalStorageUri.fsPath, (message) => deps.log.warn(message));
  const changed = new vscode.EventEmitter<void>();
  // Other windows' answers change today's figures too: the status bar and Show Usage follow the file.
  const unwatch = store.watch(() => changed.fire());
  const noticed = new Set<string>();
  let active: { fingerprint: string; baseUrl: string } | undefined;

  const costOf = (record: Pick<UsageRecord, 'model' | 'usage' | 'images'>): Cost | undefined => {
    const raw = deps.catalog.peek()?.models.find((m) => m.id === record.model)?.raw;
    return resolveCost({
      tokens: tokenCountsOf(record.usage),
      images: record.images?.count,
      billed: billedCostOf(record.usage),
      gatewayPrices: gatewayPricesOf(raw),
      userPrices: parsePriceTable(gatewaySettings.prices)[record.model],
    });
  };

  const today = async (): Promise<{
    totals: ReturnType<typeof todayOf>;
    budgetUsed: number;
    keyFingerprint?: string;
  }> => {
    const key = await deps.keys.active();
    const now = Date.now();
    // Read before each decision: what every window appended since (a stat and the new tail only).
    const totals = todayOf(await store.since(startOfDay(now)), key?.fingerprint ?? '', now);
    return {
      totals,
      budgetUsed: budgetUsed(totals, parseBudget(gatewaySettings.budgetDaily)),
      keyFingerprint: key?.fingerprint,
    };
  };

  const checkBudget = async (fingerprint: string): Promise<void> => {
    const state = await today();
    if (state.keyFingerprint !== fingerprint || state.budgetUsed < BUDGET_NOTICE_FRACTION) return;
    const mark = `${fingerprint} ${dayOf(Date.now())}`;
    if (noticed.has(mark)) return;
    noticed.add(mark);
    // Another window may have announced it already today (the mark is kept next to the ledger, under its lock).
    if (!(await store.claimNotice(mark))) return;
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Model Gateway: today you used {0}% of your daily budget.', Math.floor(state.budgetUsed * 100)),
    );
  };

  const service: AccountService & vscode.Disposable = {
    async balance(options): Promise<Balance | undefined> {
      const access = await deps.gateway.clientWithKey();
      if (!access) return undefined;
      active = { fingerprint: access.key.fingerprint, baseUrl: deps.config.current.baseUrl };
      const before = memory.peek(active.fingerprint, active.baseUrl);
      const balance = await memory.get(
        active.fingerprint,
        active.baseUrl,
        (route) => access.client.readBalance(route, { signal: options?.signal }),
        { fresh: options?.fresh },
      );
      if (balance !== before) changed.fire();
      return balance;
    },
    peekBalance: () => (active ? memory.peek(active.fingerprint, active.baseUrl) : undefined),
    balanceError: () => {
      if (active) memory.invalidate(active.fingerprint, active.baseUrl);
    },
    costOf,
    record(record, keyFingerprint) {
      const tokens = tokenCountsOf(record.usage);
      const cost = costOf(record);
      const entry: LedgerEntry = {
        t: new Date().toISOString(),
        key: keyFingerprint,
        model: record.model,
        route: record.route,
        dialect: record.images ? 'images' : (record.dialect ?? 'messages'),
        ...(record.kind ? { kind: record.kind } : {}),
        ...tokens,
        ...(record.images ? { images: record.images.count, imageSize: record.images.size } : {}),
        ...(cost ? { cost: cost.amount, costSource: cost.source } : {}),
        ...(record.outputEstimated ? { outputEstimated: true } : {}),
      };
      if (entry.imageSize === undefined) delete entry.imageSize;
      void store.append(entry).then(() => {
        changed.fire();
        return checkBudget(keyFingerprint);
      });
      return cost;
    },
    ledger: () => store.all(),
    today,
    async wouldPassDailyBudget(nextTokens) {
      const budget = parseBudget(gatewaySettings.budgetDaily);
      if (!budget) return false;
      const { totals } = await today();
      return wouldPass(totals, budget, nextTokens);
    },
    async clear(keyFingerprint) {
      await store.clear(keyFingerprint);
      changed.fire();
    },
    onDidChange: changed.event,
    dispose: () => {
      keyChanged.dispose();
      unwatch();
      changed.dispose();
    },
  };
  // The last balance known (kept in globalState) belongs to the active key and base URL: looked up at start and on
  // a key change, so the status bar tooltip has it after a window reload without a request or a click.
  const track = (): void =>
    void deps.keys.active().then(
      (key) => {
        active = key ? { fingerprint: key.fingerprint, baseUrl: deps.config.current.baseUrl } : undefined;
        changed.fire();
      },
      () => undefined,
    );
  const keyChanged = deps.keys.onDidChange(track);
  track();
  return service;
}
