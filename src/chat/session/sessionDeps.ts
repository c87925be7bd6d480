// What the chat session gets from VS Code and the rest of the extension (src/chat/host/register.ts builds it; the tests
// and the benchmarks build their own): storage, the client, the page, the agent port, costs and settings.
import type { ImageStore } from '../store/imageStore';
import type { ProjectInstructions } from '../../agent/instructions';
import type { GatewayClient, Logger, UsageRecord } from '../../gateway/types';
import type { Localizer } from '../../shared/l10n';
import type { ChatCost } from '../../shared/money';
import type {
  ApprovalSummary,
  ConversationSettings,
  ErrorCard,
  HostToWebviewMessage,
} from '../../shared/protocol/chat';
import type { AgentRunner } from '../agent/agentPort';
import type { Timers } from './deltaBatcher';
import type { HistoryStorage } from '../store/history';

/** Told of each response of a client the usage ledger recorded, with the cost it recorded (undefined: not priced). */
export type RecordedCost = (record: UsageRecord, cost: ChatCost | undefined) => void;

export interface SessionDeps {
  storage: HistoryStorage;
  /**
   * A client, or undefined after telling the user what is missing. Its own 429 retries off: the request slot is the
   * one owner of waiting and sending again.
   */
  getClient(onRecorded?: RecordedCost): Promise<GatewayClient | undefined>;
  /** Why there is no client, in the user's words (a workspace base URL that was not allowed is not "no key"). */
  accessProblem?(): string;
  /** Turns an error into the inline card (the spec's reaction as actions). */
  errorCard(error: unknown): ErrorCard;
  /** The settings of a conversation without its own; `agentModel`: the model of Agent conversations, when set. */
  defaults(): ConversationSettings & { agentModel?: string };
  post(message: HostToWebviewMessage): void;
  /** The known secrets now (stored keys, secret header values): redacted from all the page is sent, also mid-stream. */
  secrets?(): Iterable<string>;
  setBusy(busy: boolean): void;
  newId(): string;
  now(): number;
  timers?: Timers;
  log?: Logger;
  /** Host-side delta batching interval. */
  batchMs?: number;
  /** Wait after a 429 that named no Retry-After. */
  defaultRetryMs?: number;
  /** Agent mode (absent: Ask only). */
  agent?: AgentRunner;
  /** The user's language for refusals, warnings and setup errors (vscode.l10n; English when absent). */
  l10n?: Localizer;
  /** The project instructions (AGENTS.md, …, the user's setting) as of now, sent with Ask, Agent and Plan answers. */
  instructions?(): Promise<ProjectInstructions>;
  /** The model's context window (input + max_tokens), from the model list; default DEFAULT_CONTEXT_WINDOW. */
  contextWindow?(model: string, maxTokens: number): number;
  /** modelGateway.agent.condenseThreshold (Ask answers condense past it too); default DEFAULT_CONDENSE_THRESHOLD. */
  condenseThreshold?(): number;
  /** What the agent runs without asking (the user's own settings), shown in the composer; absent: not shown. */
  approvals?(): ApprovalSummary;
  /** The chat's images (stored by hash); absent: image attachments are sent as a note that they are gone. */
  images?: ImageStore;
}
