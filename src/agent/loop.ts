// The agent loop of one user turn: request (streamed) → tool calls → results → request … until the model ends
// the turn or a budget, Stop, or an error ends it. Billable requests are never replayed after an unknown
// outcome; only requests the gateway refused without billing (429, a 400 naming cache_control) are sent again.
import { isGatewayError } from '../gateway/errors/errors';
import {
  isRateLimited,
  RATE_LIMIT_PROFILES,
  rateLimitWait,
  waitOut,
  type RateLimitProfile,
} from '../gateway/rateLimitPolicy';
import type {
  ContentBlock,
  GatewayClient,
  Message,
  MessageParam,
  ToolUseBlock,
  Usage,
  UsageKind,
} from '../gateway/types';
import { sumCosts, type Cost } from '../gateway/pricing';
import {
  CachingMemory,
  isCacheControlRejection,
  withBreakpoints,
  imageAnchor,
  type AgentRequestBody,
  type BlockRef,
} from './caching';
import { clearOldResults } from './clearResults';
import { estimateMessages, estimateTokens, fitToWindow } from './fit';
import { toolsForMode, type AgentMode } from './modes';
import type { PolicySettings } from './policy';
import { isValidToolInput, runToolCalls, type ToolCall } from './toolRunner';
import type { AgentEvent, ApprovalAnswer, ApprovalRequest, Tool, TurnEndReason } from './types';
import { tokenCountsOf } from '../gateway/pricing';
import { addTokens, ZERO_TOKENS, type TokenCounts } from '../shared/tokens';
import { calibrationOf } from '../shared/tokenEstimate';
import { endMessage } from './usage';
import { unfinishedUsage, usageUnreported } from '../gateway/usageReport';
import { english } from '../shared/l10n';

export const DEFAULT_MAX_STEPS = 25;
export const DEFAULT_CONTEXT_WINDOW = 200_000;

/** When the conversation outgrows the window, it is shortened to this share of it (see fitToWindow). */
const TRIM_TARGET = 0.6;

export interface AgentTurnOptions {
  client: Pick<GatewayClient, 'streamMessage'>;
  model: string;
  /** max_tokens of each request (reserved out of the context window). */
  maxTokens: number;
  system?: string;
  /** The conversation so far, ending with the user's new message (or with tool results, to continue). */
  messages: readonly MessageParam[];
  /** The tools; a function is asked again before each step (tools enabled on demand, see toolCatalog.ts). */
  tools: ReadonlyArray<Tool<never>> | (() => ReadonlyArray<Tool<never>>);
  /** agent (default) or plan: Plan mode offers only read-only tools and refuses any other call (modes.ts). */
  mode?: AgentMode;
  policy: PolicySettings;
  /**
   * Files were written (or restored) earlier in this conversation: allow-listed commands ask from the first step.
   * The conversation's record of its tool cards is the source (src/chat/agent/agentTurn.ts), so a reload keeps it.
   */
  filesWritten?: boolean;
  /**
   * The turn's shared state, used as it is (not copied): a sub-agent shares its parent's, so a write by either makes
   * the other's allow-listed commands ask (src/agent/subagents.ts). Absent: a new one from `filesWritten`.
   */
  turnState?: { wroteFiles: boolean };
  /** What the requests are for, in the ledger ('agent' by default; a sub-agent's are 'subagent'). */
  usageKind?: UsageKind;
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  onEvent?(event: AgentEvent): void;
  /** Stop: closes the in-flight request and cancels the running tool. */
  signal?: AbortSignal;
  /** Model requests per turn. Default 25. */
  maxSteps?: number;
  /** Tokens per turn (input + cache write + cache read + output, summed over steps). Default: no limit. */
  tokenBudget?: number;
  /** What a step cost (the account's price resolution); absent: tokens only. */
  costOf?(model: string, usage: Usage): Cost | undefined;
  /**
   * The daily budget (modelGateway.budget.daily): true when a request of about this many tokens would pass it. Asked
   * before every request but the turn's first (starting or continuing a turn is the user's own decision).
   */
  wouldPassDailyBudget?(nextTokens: number): Promise<boolean>;
  /** The model's context window in tokens (input + max_tokens). Default 200 000. */
  contextWindow?: number;
  /**
   * The conversation's calibration of the token estimate (calibrationOf, src/shared/tokenEstimate.ts), used until a
   * step of this turn reports its own input tokens. Absent: the heuristic as it is.
   */
  calibration?: number;
  /** Large tool results older than the last steps are cleared once (clearResults.ts). Default true. */
  clearOldResults?: boolean;
  /** Prompt caching; on unless `enabled: false` or the memory says this key + model rejects it. */
  caching?: { enabled?: boolean; keyId: string; memory: CachingMemory };
  /** false: the model reads no images (tool results' images are replaced by a sentence). Default true. */
  vision?: boolean;
  /** 429 handling, over the agent's profile (gateway/rateLimitPolicy.ts: 10 s without Retry-After, ≤ 5 min, 5 waits a step). */
  rateLimit?: Partial<RateLimitProfile>;
  /**
   * Removes every known secret from each tool result (content, details, progress) before it is shown, stored or
   * sent: a command may print a key it found anywhere (src/shared/secretRedaction.ts).
   */
  redact?: (text: string) => string;
}

export interface AgentTurnResult {
  reason: TurnEndReason;
  /** One sentence for the user. */
  message: string;
  /** The conversation after the turn (valid to send again: every tool_use has its tool_result). */
  messages: MessageParam[];
  steps: number;
  usage: TokenCounts;
  /** What a stopped or cut step had produced: shown, never added to `messages`, never replayed. */
  partial?: Message;
  error?: unknown;
}

type Problems = ReadonlyArray<{ index: number; id?: string; raw: string; reason: string }>;
type StepOutcome =
  | { ok: true; message: Message; problems?: Problems }
  | { ok: false; reason: TurnEndReason; error?: unknown; partial?: Message };

/** Runs one agent turn. Never throws for gateway, tool or approval failures: they end the turn with a reason. */
export function runAgentTurn(options: AgentTurnOptions): Promise<AgentTurnResult> {
  return new AgentTurn(options).run();
}

class AgentTurn {
  private messages: MessageParam[];
  private steps = 0;
  private usage: TokenCounts = { ...ZERO_TOKENS };
  /** Reported input tokens ÷ our estimate of the same request, from the last step that reported them. */
  private calibration: number | undefined;
  private readonly costs: Array<Cost | undefined> = [];
  private previousBreakpoint: BlockRef | undefined;
  private readonly signal: AbortSignal;
  private readonly turnState: { wroteFiles: boolean };
  private readonly system: AgentRequestBody['system'];
  private tools: ReadonlyArray<Tool<never>> = [];
  private toolDefs: NonNullable<AgentRequestBody['tools']> = [];
  private fixedTokens = 0;

  constructor(private readonly o: AgentTurnOptions) {
    this.messages = [...o.messages];
    this.signal = o.signal ?? new AbortController().signal;
    this.turnState = o.turnState ?? { wroteFiles: o.filesWritten === true };
    if (o.filesWritten === true) this.turnState.wroteFiles = true;
    this.calibration = o.calibration;
    this.system = o.system?.trim() ? [{ type: 'text', text: o.system }] : undefined;
    this.refreshTools();
  }

  /** The tools of the next step and their definitions (the mode's share of them), and the fixed tokens they cost. */
  private refreshTools(): void {
    this.tools = typeof this.o.tools === 'function' ? this.o.tools() : this.o.tools;
    this.toolDefs = toolsForMode(this.tools, this.o.mode).map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema,
    }));
    this.fixedTokens = estimateTokens({ system: this.system, tools: this.toolDefs });
  }

  async run(): Promise<AgentTurnResult> {
    const maxSteps = this.o.maxSteps ?? DEFAULT_MAX_STEPS;
    const inputWindow = (this.o.contextWindow ?? DEFAULT_CONTEXT_WINDOW) - this.o.maxTokens;
    for (;;) {
      if (this.signal.aborted) return this.end('stopped');
      if (this.steps >= maxSteps) return this.end('step_budget');
      const step = this.steps + 1;
      if (typeof this.o.tools === 'function' && this.steps > 0) this.refreshTools();
      if (this.o.clearOldResults !== false) this.messages = clearOldResults(this.messages, this.fixedTokens).messages;
      // The estimate times the calibration must fit the window: the same as the estimate fitting the window ÷ it.
      // (The token budgets below keep the plain estimate: they add up what the gateway reported.)
      const ratio = this.calibration ?? 1;
      const fit = fitToWindow(
        this.messages,
        this.fixedTokens,
        Math.floor(inputWindow / ratio),
        Math.floor((inputWindow * TRIM_TARGET) / ratio),
      );
      if (fit.results > 0) {
        this.messages = fit.messages;
        this.emit({ type: 'context_trimmed', step, results: fit.results, charsOmitted: fit.charsOmitted });
      }
      if (!fit.fits) return this.end('context_full');
      const estimate = this.fixedTokens + estimateMessages(this.messages);
      if (this.overBudget(this.steps > 0 ? estimate : 0)) return this.end('token_budget');
      if (this.steps > 0 && (await this.o.wouldPassDailyBudget?.(estimate + this.o.maxTokens)))
        return this.end('daily_budget');
      this.steps = step;
      const outcome = await this.request(step, estimate);
      if (!outcome.ok) return this.end(outcome.reason, outcome.error, outcome.partial);
      const { message } = outcome;
      const calls = toolCalls(message, outcome.problems ?? []);
      const content = sanitizeAssistant(message.content);
      if (content.length > 0) this.messages.push({ role: 'assistant', content });
      if (calls.length === 0) {
        if (message.stop_reason === 'pause_turn' && content.length > 0) continue;
        return this.end(stopReasonOf(message.stop_reason));
      }
      const run = await runToolCalls(calls, step, {
        // Every tool by name, also those the mode did not offer: a call to one is refused by the mode, not unknown.
        tools: new Map(this.tools.map((t) => [t.name, t])),
        mode: this.o.mode,
        policy: this.o.policy,
        approve: this.o.approve,
        emit: (e) => this.emit(e),
        signal: this.signal,
        turn: this.turnState,
        redact: this.o.redact,
        vision: this.o.vision,
      });
      this.messages.push({ role: 'user', content: run.results });
      if (run.stopped) return this.end('stopped');
      if (this.overBudget(0)) return this.end('token_budget');
    }
  }

  private overBudget(nextEstimate: number): boolean {
    const budget = this.o.tokenBudget;
    if (budget === undefined) return false;
    const used = this.usage.input + this.usage.output + this.usage.cacheRead + this.usage.cacheWrite;
    return used >= budget || used + nextEstimate > budget;
  }

  /** One model request, sent again only when the gateway refused it unbilled (429, cache_control rejected). */
  private async request(step: number, estimate: number): Promise<StepOutcome> {
    const c = this.o.caching;
    let caching = c !== undefined && c.enabled !== false && !c.memory.isRejected(c.keyId, this.o.model);
    let waits = 0;
    this.emit({ type: 'step_start', step, estimatedInputTokens: estimate, caching });
    for (;;) {
      const base: AgentRequestBody = {
        model: this.o.model,
        max_tokens: this.o.maxTokens,
        system: this.system,
        tools: this.toolDefs.length > 0 ? this.toolDefs : undefined,
        messages: this.messages,
      };
      const marked = caching
        ? withBreakpoints(base, this.previousBreakpoint, imageAnchor(this.messages))
        : { body: base, end: undefined };
      try {
        const message = await this.stream(marked.body, step);
        if (caching) this.previousBreakpoint = marked.end;
        this.countUsage(step, message, estimate);
        return { ok: true, message };
      } catch (error) {
        const partial = isGatewayError(error) ? error.partial : undefined;
        const problems = unreadableToolInputs(error);
        // A whole message (only its tool input unreadable) has its reported counts; a cut or stopped one, what streamed.
        if (partial) this.countUsage(step, partial, estimate, !problems);
        // The message arrived whole (billed) but a tool input is not JSON: answer that call with an error.
        if (partial && problems) return { ok: true, message: partial, problems };
        if (this.signal.aborted) return { ok: false, reason: 'stopped', partial };
        if (caching && c && !partial && isCacheControlRejection(error)) {
          caching = false;
          if (c.memory.reject(c.keyId, this.o.model)) {
            const l10n = this.o.policy.l10n ?? english; // a note the user reads
            this.emit({
              type: 'caching_disabled',
              step,
              reason: l10n.t(
                'The gateway rejected prompt caching (cache_control) for this model; it stays off for this key and model.',
              ),
            });
          }
          continue;
        }
        if (isRateLimited(error)) {
          const wait = rateLimitWait(error, ++waits, { ...RATE_LIMIT_PROFILES.agent, ...this.o.rateLimit });
          if (wait === undefined) return { ok: false, reason: 'rate_limited', error };
          this.emit({ type: 'rate_limited', step, waitMs: wait, attempt: waits });
          if (!(await waitOut(wait, this.signal))) return { ok: false, reason: 'stopped' };
          continue;
        }
        return { ok: false, reason: unknownOutcome(error, partial) ? 'outcome_unknown' : 'error', error, partial };
      }
    }
  }

  private async stream(body: AgentRequestBody, step: number): Promise<Message> {
    const stream = this.o.client.streamMessage(body, {
      signal: this.signal,
      usageKind: this.o.usageKind ?? 'agent',
    });
    for await (const ev of stream) {
      if (ev.type !== 'content_block_delta') continue;
      const d = ev.delta as { type?: string; text?: unknown; thinking?: unknown } | undefined;
      if (d?.type === 'text_delta' && typeof d.text === 'string') this.emit({ type: 'text', step, text: d.text });
      else if (d?.type === 'thinking_delta' && typeof d.thinking === 'string')
        this.emit({ type: 'thinking', step, text: d.thinking });
    }
    return stream.finalMessage();
  }

  /**
   * Adds a step's usage. A cut or stopped message counts what streamed (estimated). Usage of all zeros on a message
   * with content was not reported by the gateway: the budget counts the request's estimate and the answer's size
   * instead, so a silent gateway is never free.
   */
  private countUsage(step: number, message: Message, requestEstimate: number, unfinished = false): void {
    const unreported = !unfinished && usageUnreported(message.usage, message.content);
    const stepUsage = unfinished
      ? unfinishedUsage(message)
      : unreported
        ? { ...ZERO_TOKENS, input: requestEstimate, output: estimateTokens(message.content) }
        : tokenCountsOf(message.usage);
    if (!unfinished && !unreported) {
      const reported = stepUsage.input + stepUsage.cacheRead + stepUsage.cacheWrite;
      this.calibration = calibrationOf(reported, requestEstimate) ?? this.calibration;
    }
    this.usage = addTokens(this.usage, stepUsage);
    // An unreported step is priced on its estimate (never billed, so the cost is marked as an estimate too).
    const pricedUsage = unreported
      ? { ...message.usage, input_tokens: stepUsage.input, output_tokens: stepUsage.output }
      : message.usage;
    const cost = this.o.costOf?.(message.model || this.o.model, pricedUsage);
    this.costs.push(cost);
    const turnCost = sumCosts(this.costs);
    this.emit({
      type: 'usage',
      step,
      usage: stepUsage,
      turn: { ...this.usage },
      ...(cost ? { cost } : {}),
      ...(turnCost ? { turnCost } : {}),
      ...(unreported ? { unreported } : {}),
    });
  }

  private end(reason: TurnEndReason, error?: unknown, partial?: Message): AgentTurnResult {
    // The user's language (the policy's Localizer, the host's vscode.l10n): the message is shown, never sent.
    const message = endMessage(reason, {
      steps: this.steps,
      usage: this.usage,
      tokenBudget: this.o.tokenBudget,
      error,
      l10n: this.o.policy.l10n,
    });
    this.emit({ type: 'turn_end', reason, steps: this.steps, usage: { ...this.usage }, message });
    return { reason, message, messages: this.messages, steps: this.steps, usage: { ...this.usage }, partial, error };
  }

  private emit(event: AgentEvent): void {
    try {
      this.o.onEvent?.(event);
    } catch {
      // A failing renderer must not break the turn (or leave a tool_use without its result).
    }
  }
}

/**
 * The tool inputs a complete message carried that the gateway client could not read (its typed error with
 * the assembled message), or undefined for any other error (cut streams stay unknown outcomes).
 */
function unreadableToolInputs(error: unknown): Problems | undefined {
  if (!isGatewayError(error) || error.kind !== 'protocol' || error.outcomeUnknown || error.cut) return undefined;
  return error.toolInputProblems && error.toolInputProblems.length > 0 ? error.toolInputProblems : undefined;
}

function toolCalls(message: Message, problems: Problems): ToolCall[] {
  const calls: ToolCall[] = [];
  message.content.forEach((b, index) => {
    if (b.type !== 'tool_use') return;
    const block = b as ToolUseBlock;
    const problem = problems.find((p) => (p.id !== undefined ? p.id === block.id : p.index === index));
    calls.push({ block, problem: problem && { raw: problem.raw, reason: problem.reason } });
  });
  return calls;
}

/** The assistant message as it goes back to the model: no empty text, tool inputs always objects. */
function sanitizeAssistant(content: readonly ContentBlock[]): MessageParam['content'] & unknown[] {
  const out: Array<Record<string, unknown>> = [];
  for (const block of content) {
    if (block.type === 'text' && !(block as { text?: string }).text) continue;
    if (block.type === 'tool_use') {
      const b = block as ToolUseBlock;
      // An unparseable input goes back as {}: the API accepts only objects, and the error result explains.
      out.push({ type: 'tool_use', id: b.id, name: b.name, input: isValidToolInput(b.input) ? b.input : {} });
      continue;
    }
    out.push(block as Record<string, unknown>);
  }
  return out as unknown as MessageParam['content'] & unknown[];
}

function stopReasonOf(stop: string | null): TurnEndReason {
  if (stop === 'max_tokens' || stop === 'model_context_window_exceeded') return 'max_tokens';
  if (stop === 'stop_sequence') return 'stop_sequence';
  if (stop === 'refusal') return 'refusal';
  return 'end_turn';
}

/** The gateway may have processed (and billed) the request: a timeout, a dropped or cut stream. */
function unknownOutcome(error: unknown, partial: Message | undefined): boolean {
  if (!isGatewayError(error)) return false;
  return error.outcomeUnknown || partial !== undefined || error.kind === 'timeout';
}
