// Public types of the agent core (pure: no `vscode` import). The VS Code side implements Tool and the
// approval callback; the core runs the loop and reports everything it does as AgentEvents.
import type { ImageBlockParam, TextBlockParam } from '../gateway/types';
import type { Cost, CostTotal } from '../gateway/pricing';
import type { TokenCounts } from '../shared/tokens';

/** How much trust a tool call needs: the approval policy decides per class (see policy.ts). */
export type ApprovalClass = 'read' | 'write' | 'command' | 'external';

/** What a tool call would touch, as the policy sees it. Paths are absolute real paths (symlinks resolved). */
export interface ToolTarget {
  paths?: string[];
  /** Paths reached through a symbolic link: where the model pointed, and where the link leads (both also in `paths`). */
  links?: Array<{ written: string; real: string }>;
  /** The exact command line a `command` tool would run. */
  command?: string;
  /** The real path of the folder a `command` tool would run in (auto-approval needs a workspace folder itself). */
  cwd?: string;
  /** Code-running settings in the configuration of the git repository a command would use (found by the host). */
  repoConfig?: Array<{ file: string; key: string }>;
  /** package.json keys whose commands a write would change (scripts, hook managers): never auto-approved. */
  packageKeys?: { file: string; keys: string[] };
  /** Configuration keys the call would change (never auto-approved). */
  settings?: string[];
  /** A one-line summary for the approval prompt and the chat card. */
  summary?: string;
}

export interface ToolContext {
  /** Fires on Stop: end the work, kill processes, return soon (the loop does not wait for a tool that ignores it). */
  signal: AbortSignal;
  /** The id of the tool_use block being answered. */
  toolUseId: string;
  /** Progress text for the chat card (e.g. command output as it arrives). */
  progress(text: string): void;
  /** The policy's verdict that let this call run ('auto', or 'ask' answered by the user). */
  verdict?: PolicyVerdict;
  /** The turn's shared state (a sub-agent shares it: src/agent/subagents.ts). */
  turn?: { wroteFiles: boolean };
}

/** A tool's answer. `content` goes to the model; `details` is for the renderer only. */
export interface ToolResult {
  content: string | Array<TextBlockParam | ImageBlockParam>;
  isError?: boolean;
  details?: unknown;
}

export interface Tool<Input = Record<string, unknown>> {
  name: string;
  /** One line the model reads. */
  description: string;
  /** JSON schema of the input (type "object"). */
  inputSchema: Record<string, unknown>;
  approvalClass: ApprovalClass;
  /**
   * Adjacent calls of such tools in one message run at the same time (sub-agents, src/agent/subagents.ts); every
   * other call runs alone, in order. Results always go back in the order of the calls.
   */
  parallel?: boolean;
  /**
   * What the call would touch, resolved (real paths): the policy decides on this, never on tool output.
   * Throwing refuses the call with the error's message as the tool result (e.g. a malformed path).
   */
  target(input: Input, signal: AbortSignal): ToolTarget | Promise<ToolTarget>;
  invoke(input: Input, ctx: ToolContext): Promise<ToolResult>;
}

/** Token counts of one step or of a whole turn. */
/**
 * Tokens in the Messages API's own definitions: `input` is the uncached input (input_tokens), cache reads and cache
 * writes are counted apart, `output` is what the model wrote. Every figure the user sees uses these four.
 */

export type Decision = 'auto' | 'ask' | 'refuse';

/** The policy's verdict on one tool call. */
export interface PolicyVerdict {
  decision: Decision;
  /** Id of the rule that decided (see APPROVAL_RULES). */
  rule: string;
  /** Human-readable reason in English: what the model is told. */
  reason: string;
  /** The same reason in the user's language (PolicySettings.l10n): the approval prompt and the refusal note. */
  shown?: string;
}

export interface ApprovalRequest {
  toolUseId: string;
  toolName: string;
  approvalClass: ApprovalClass;
  input: Record<string, unknown>;
  target: ToolTarget;
  verdict: PolicyVerdict;
  /** A sub-agent's call (its toolUseId is scoped to it): the prompt names the sub-agent and its task. */
  subagent?: { id: string; task: string };
}

export interface ApprovalAnswer {
  approved: boolean;
  /** Told to the model when the user denies (e.g. "use the other file"). */
  reason?: string;
}

export type TurnEndReason =
  | 'end_turn'
  | 'stop_sequence'
  | 'max_tokens'
  | 'refusal'
  | 'step_budget'
  | 'token_budget'
  | 'daily_budget'
  | 'context_full'
  | 'stopped'
  | 'outcome_unknown'
  | 'rate_limited'
  | 'error';

export type AgentEvent =
  | { type: 'step_start'; step: number; estimatedInputTokens: number; caching: boolean }
  | { type: 'text'; step: number; text: string }
  | { type: 'thinking'; step: number; text: string }
  | {
      type: 'tool_proposed';
      step: number;
      toolUseId: string;
      name: string;
      input: unknown;
      target?: ToolTarget;
      verdict?: PolicyVerdict;
    }
  | { type: 'tool_approved'; step: number; toolUseId: string; by: 'policy' | 'user' }
  | { type: 'tool_denied'; step: number; toolUseId: string; reason: string }
  | { type: 'tool_refused'; step: number; toolUseId: string; reason: string; shown?: string }
  | { type: 'tool_progress'; step: number; toolUseId: string; text: string }
  | {
      type: 'tool_result';
      step: number;
      toolUseId: string;
      isError: boolean;
      content: ToolResult['content'];
      details?: unknown;
    }
  /** `unreported`: the gateway sent zeros on a message with content; `usage` is then an estimate. */
  | {
      type: 'usage';
      step: number;
      usage: TokenCounts;
      turn: TokenCounts;
      cost?: Cost;
      turnCost?: CostTotal;
      unreported?: true;
    }
  | { type: 'rate_limited'; step: number; waitMs: number; attempt: number }
  | { type: 'caching_disabled'; step: number; reason: string }
  | { type: 'context_trimmed'; step: number; results: number; charsOmitted: number }
  | { type: 'turn_end'; reason: TurnEndReason; steps: number; usage: TokenCounts; message: string };
