// Runs the tool calls of one assistant message, one at a time (adjacent calls of a `parallel` tool together): input
// check, target, policy verdict, approval, invocation with cancellation. Every call gets exactly one tool_result, in
// the order of the calls.
import type { ToolResultBlockParam, ToolUseBlock } from '../gateway/types';
import { modeRefusal, type AgentMode } from './modes';
import { decide, type PolicySettings } from './policy';
import { redactDeep } from '../shared/secretRedaction';
import { onStop } from './stopFanOut';
import type { AgentEvent, ApprovalAnswer, ApprovalRequest, PolicyVerdict, Tool, ToolResult } from './types';

export interface ToolRunnerOptions {
  tools: ReadonlyMap<string, Tool<never>>;
  policy: PolicySettings;
  /** Plan mode refuses every call that is not read-only, before the policy is asked (modes.ts). */
  mode?: AgentMode;
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  emit(event: AgentEvent): void;
  signal: AbortSignal;
  /**
   * State shared by the steps of a turn, started from the conversation's: set once a write tool ran (the policy then
   * asks before commands until the conversation ends).
   */
  turn?: { wroteFiles: boolean };
  /** Applied to every result and progress text before it is emitted or returned (secrets a tool printed). */
  redact?: (text: string) => string;
  /** false: the model reads no images; an image a tool returns is replaced by a sentence saying so. Default true. */
  vision?: boolean;
}

export interface ToolRunOutcome {
  results: ToolResultBlockParam[];
  /** True when Stop fired during the calls (the remaining ones were not run). */
  stopped: boolean;
}

const STOPPED = Symbol('stopped');

/** A plain JSON object, the only valid tool input (a failed parse is kept as the raw string by the assembler). */
export function isValidToolInput(input: unknown): input is Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}

/** A tool call of the assistant message; `problem` when the gateway client could not read its input. */
export interface ToolCall {
  block: ToolUseBlock;
  problem?: { raw: string; reason: string };
}

export async function runToolCalls(
  calls: readonly ToolCall[],
  step: number,
  o: ToolRunnerOptions,
): Promise<ToolRunOutcome> {
  const results: ToolResultBlockParam[] = [];
  let stopped = false;
  for (let i = 0; i < calls.length;) {
    const group = parallelGroup(calls, i, o.tools);
    i += group.length;
    const outcomes = await Promise.all(
      group.map(async ({ block: call, problem }): Promise<ToolResult> => {
        if (stopped || o.signal.aborted) {
          stopped = true;
          return { content: 'Not run: the user stopped the turn before this call.', isError: true };
        }
        const r = await runOne(call, problem, step, o);
        if (r !== STOPPED) return r;
        stopped = true;
        return {
          content: 'Stopped by the user while it was pending or running; its effects may be partial.',
          isError: true,
        };
      }),
    );
    group.forEach(({ block: call }, k) => {
      let result = outcomes[k];
      if (o.redact) result = redactDeep(result, o.redact);
      o.emit({
        type: 'tool_result',
        step,
        toolUseId: call.id,
        isError: result.isError === true,
        content: result.content,
        details: result.details,
      });
      results.push(toResultBlock(call.id, o.vision === false ? withoutImages(result) : result));
    });
  }
  return { results, stopped };
}

/** The calls from `start` that run together: a run of adjacent calls to `parallel` tools, else the one call. */
function parallelGroup(calls: readonly ToolCall[], start: number, tools: ToolRunnerOptions['tools']): ToolCall[] {
  const parallel = (c: ToolCall | undefined): boolean =>
    c !== undefined && !c.problem && tools.get(c.block.name)?.parallel === true;
  if (!parallel(calls[start])) return [calls[start]];
  let end = start + 1;
  while (parallel(calls[end])) end++;
  return calls.slice(start, end);
}

async function runOne(
  call: ToolUseBlock,
  problem: ToolCall['problem'],
  step: number,
  o: ToolRunnerOptions,
): Promise<ToolResult | typeof STOPPED> {
  const tool = o.tools.get(call.name);
  if (problem || !isValidToolInput(call.input)) {
    o.emit({ type: 'tool_proposed', step, toolUseId: call.id, name: call.name, input: problem?.raw ?? call.input });
    const raw = problem?.raw ?? (typeof call.input === 'string' ? call.input : (JSON.stringify(call.input) ?? ''));
    const why = problem ? `: ${problem.reason}` : '';
    return error(
      `Not run: the input of this call is not a valid JSON object${why}. Send the call again with complete, valid JSON input. Received:\n${shorten(raw)}`,
    );
  }
  if (!tool) {
    o.emit({ type: 'tool_proposed', step, toolUseId: call.id, name: call.name, input: call.input });
    return error(`Not run: there is no tool named "${call.name}". Available tools: ${[...o.tools.keys()].join(', ')}.`);
  }
  const refusedByMode = modeRefusal(o.mode, { toolName: tool.name, approvalClass: tool.approvalClass });
  if (refusedByMode) {
    const shown = modeRefusal(o.mode, { toolName: tool.name, approvalClass: tool.approvalClass }, o.policy.l10n);
    o.emit({ type: 'tool_proposed', step, toolUseId: call.id, name: call.name, input: call.input });
    o.emit({ type: 'tool_refused', step, toolUseId: call.id, reason: refusedByMode, shown });
    return error(`Refused: ${refusedByMode}`);
  }
  const input = call.input as never;
  let target;
  try {
    target = await raceStop(Promise.resolve(tool.target(input, o.signal)), o.signal);
  } catch (e) {
    o.emit({ type: 'tool_proposed', step, toolUseId: call.id, name: call.name, input: call.input });
    return error(`Not run: ${messageOf(e)}`);
  }
  if (target === STOPPED) return STOPPED;
  const verdict = decide(
    { toolName: tool.name, approvalClass: tool.approvalClass, target, filesWritten: o.turn?.wroteFiles },
    o.policy,
  );
  o.emit({ type: 'tool_proposed', step, toolUseId: call.id, name: call.name, input: call.input, target, verdict });
  if (verdict.decision === 'refuse') {
    o.emit({ type: 'tool_refused', step, toolUseId: call.id, reason: verdict.reason, shown: verdict.shown });
    return error(`Refused: ${verdict.reason}`);
  }
  if (verdict.decision === 'ask') {
    const request: ApprovalRequest = {
      toolUseId: call.id,
      toolName: tool.name,
      approvalClass: tool.approvalClass,
      input: call.input,
      target,
      verdict,
    };
    let answer: ApprovalAnswer | typeof STOPPED;
    try {
      answer = await raceStop(o.approve(request, o.signal), o.signal);
    } catch (e) {
      answer = { approved: false, reason: `the approval prompt failed: ${messageOf(e)}` };
    }
    if (answer === STOPPED) return STOPPED;
    if (!answer.approved) {
      const reason = answer.reason?.trim() || 'the user denied this call';
      o.emit({ type: 'tool_denied', step, toolUseId: call.id, reason });
      return error(`Denied: ${reason}.`);
    }
    o.emit({ type: 'tool_approved', step, toolUseId: call.id, by: 'user' });
  } else {
    o.emit({ type: 'tool_approved', step, toolUseId: call.id, by: 'policy' });
  }
  // Another extension's tool may write files too: once it ran, allow-listed commands ask as after a write.
  if ((tool.approvalClass === 'write' || tool.approvalClass === 'external') && o.turn) o.turn.wroteFiles = true;
  return invoke(tool, input, call.id, step, o, verdict);
}

async function invoke(
  tool: Tool<never>,
  input: never,
  toolUseId: string,
  step: number,
  o: ToolRunnerOptions,
  verdict: PolicyVerdict,
): Promise<ToolResult | typeof STOPPED> {
  // Each call gets its own signal, so that a tool holding on to it cannot observe a later call's Stop.
  const controller = new AbortController();
  // Through the fan-out: parallel calls share the turn signal's one listener (stopFanOut.ts).
  const unlink = onStop(o.signal, () => controller.abort());
  try {
    const ctx = {
      signal: controller.signal,
      toolUseId,
      verdict,
      turn: o.turn,
      progress: (text: string) =>
        o.emit({ type: 'tool_progress', step, toolUseId, text: o.redact ? o.redact(text) : text }),
    };
    return await raceStop(tool.invoke(input, ctx), o.signal);
  } catch (e) {
    if (o.signal.aborted) return STOPPED;
    return error(`The tool failed: ${messageOf(e)}`);
  } finally {
    unlink();
  }
}

/** Resolves with STOPPED as soon as Stop fires: a tool that ignores its signal does not hold the turn. */
function raceStop<T>(p: Promise<T>, signal: AbortSignal): Promise<T | typeof STOPPED> {
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.resolve(STOPPED);
  }
  return new Promise((resolve, reject) => {
    const unlink = onStop(signal, () => resolve(STOPPED));
    p.then(
      (v) => {
        unlink();
        resolve(v);
      },
      (e: unknown) => {
        unlink();
        reject(e);
      },
    );
  });
}

/** A tool result for a model that reads no images: each image becomes a sentence (the model is told, not left guessing). */
function withoutImages(r: ToolResult): ToolResult {
  if (typeof r.content === 'string' || !r.content.some((b) => b.type === 'image')) return r;
  const text = r.content
    .map((b) =>
      b.type === 'text'
        ? b.text
        : '[This is an image. The model answering does not read images, so it was not sent: say so to the user, and suggest a model that reads images.]',
    )
    .join('\n');
  return { ...r, content: text };
}

function toResultBlock(id: string, r: ToolResult): ToolResultBlockParam {
  const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: id, content: r.content };
  if (r.isError) block.is_error = true;
  return block;
}

function error(text: string): ToolResult {
  return { content: text, isError: true };
}

function shorten(raw: string): string {
  return raw.length > 300 ? `${raw.slice(0, 300)}… (${raw.length} characters)` : raw;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
