// The scripted agent model: a deterministic "model" that works through tool calls written as directives
// in the user's message, reads the tool_results it gets back, and finishes with a summary. Its state is
// the conversation itself (how many tool steps the assistant already took since the task message), so a
// client that sends the same conversation gets the same reply, and nothing is remembered server-side.
//
// Directives are lines of the user's own text (never of tool_result content: tool output is data, and a
// hostile file must not be able to steer the emulated model any more than the real one should obey it):
//   @tool NAME {json}                 one step: one tool_use block
//   @force-tool NAME {json}           the same, even when the request does not offer NAME (a model that guesses
//                                     a tool, e.g. an edit in Plan mode: the client must refuse it, not just hide it)
//   @tools-parallel NAME {json} NAME {json} ...   one step: several tool_use blocks in one message
//   @interleave                       parallel steps stream their input_json_delta fragments interleaved
//   @edit PATH SEARCH=>REPLACE        one step: the offered edit tool (\n in SEARCH / REPLACE = newline)
//   @run "COMMAND"                    one step: the offered command tool
//   @steps N                          N tool steps in total: the steps above repeat in order
//   @after-result-say TEXT            the final answer starts with TEXT
// Without directives the agent model answers a plain request with tools of its own choosing when the request
// offers tools (agentPlan.ts: "add a test for X", or a read-only look around), and like the chat models when
// it offers none. When the last user message carries tool_results and no step is left, the final answer
// quotes the first line of each result. A later user message that only says "Continue" goes on with the task.
import { createHash } from 'node:crypto';
import { planNaturalTurn, type PlanStep } from './agentPlan';
import { planDelegate, wantsSubagents } from './agentDelegate';
import { toolInput } from './text';

/** One tool_use block the script wants; `kind` says how its name and input are found in the offered tools. */
export type ScriptCall =
  | { kind: 'tool'; name: string; input: Record<string, unknown>; forced?: boolean }
  | { kind: 'edit'; path: string; search: string; replace: string }
  | { kind: 'run'; command: string };

export interface AgentScript {
  /** Tool steps in order; each step is one assistant message with one or more tool_use blocks. */
  steps: ScriptCall[][];
  /** Total tool steps of the turn (`@steps N`), default steps.length. */
  total: number;
  interleave: boolean;
  afterResult?: string;
  /** Lines that start with @ but could not be read: the final answer names them. */
  errors: string[];
}

export interface OfferedTool {
  name: string;
  input_schema?: unknown;
}

interface Message {
  role?: unknown;
  content?: unknown;
}
interface Block {
  type?: unknown;
  text?: unknown;
  content?: unknown;
  is_error?: unknown;
  tool_use_id?: unknown;
}

const DIRECTIVE = /^\s*@(tools-parallel|tool|force-tool|interleave|edit|run|steps|after-result-say)\b(.*)$/;
/** Hard cap of `@steps`, so a typo cannot make an endless (and billable) loop. */
export const MAX_SCRIPTED_STEPS = 500;

/** True when the text holds at least one agent directive line. */
export function hasAgentDirectives(text: string): boolean {
  return text.split('\n').some((line) => DIRECTIVE.test(line));
}

/** Reads the directive lines of a user message. Never throws: unreadable lines are reported in `errors`. */
export function parseAgentScript(text: string): AgentScript {
  const script: AgentScript = { steps: [], total: 0, interleave: false, errors: [] };
  let total: number | undefined;
  for (const line of text.split('\n')) {
    const m = DIRECTIVE.exec(line);
    if (!m) continue;
    const [, name, rest] = m;
    const arg = rest.trim();
    try {
      if (name === 'tool' || name === 'force-tool') {
        const calls = parseCalls(arg);
        if (calls.length !== 1) throw new Error('expects one tool name and an optional JSON object');
        script.steps.push(name === 'force-tool' ? calls.map((c) => ({ ...c, forced: true })) : calls);
      } else if (name === 'tools-parallel') {
        const calls = parseCalls(arg);
        if (calls.length === 0) throw new Error('expects tool names, each with an optional JSON object');
        script.steps.push(calls);
      } else if (name === 'interleave') {
        script.interleave = true;
      } else if (name === 'edit') {
        script.steps.push([parseEdit(arg)]);
      } else if (name === 'run') {
        const command = /^"(.*)"$/.exec(arg)?.[1] ?? arg;
        if (!command) throw new Error('expects a command');
        script.steps.push([{ kind: 'run', command: unescape(command) }]);
      } else if (name === 'steps') {
        const n = Number(arg);
        if (!Number.isInteger(n) || n < 0) throw new Error('expects a whole number');
        total = Math.min(n, MAX_SCRIPTED_STEPS);
      } else if (name === 'after-result-say') {
        script.afterResult = unescape(arg);
      }
    } catch (e) {
      script.errors.push(`@${name}: ${(e as Error).message}`);
    }
  }
  script.total = total ?? script.steps.length;
  return script;
}

/** `name {json} name {json} …`: names are tool names, each optionally followed by a JSON object. */
function parseCalls(text: string): ScriptCall[] {
  const calls: ScriptCall[] = [];
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) return calls;
    const name = /^[^\s{]+/.exec(text.slice(i))?.[0];
    if (!name) throw new Error(`a tool name is missing at "${text.slice(i, i + 20)}"`);
    i += name.length;
    while (i < text.length && /\s/.test(text[i])) i++;
    let input: Record<string, unknown> = {};
    if (text[i] === '{') {
      const end = objectEnd(text, i);
      const parsed: unknown = JSON.parse(text.slice(i, end));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new Error('the input must be a JSON object');
      input = parsed as Record<string, unknown>;
      i = end;
    }
    calls.push({ kind: 'tool', name, input });
  }
}

/** Index after the JSON object that starts at `start` (strings and escapes respected). */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new Error('the JSON object is not closed');
}

function parseEdit(arg: string): ScriptCall {
  const m = /^(\S+)\s+([\s\S]*?)=>([\s\S]*)$/.exec(arg);
  if (!m) throw new Error('expects PATH SEARCH=>REPLACE');
  return { kind: 'edit', path: m[1], search: unescape(m[2].trim()), replace: unescape(m[3].trim()) };
}

/** `\n`, `\t` and `\\` in directive arguments (a directive is one line). */
function unescape(s: string): string {
  return s.replace(/\\([nt\\])/g, (_m, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : '\\'));
}

/** Text of the user-written blocks of a message (tool_result content excluded). */
function ownText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Block[])
    .filter((b) => b?.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Block[])
    .map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : b?.type === 'image' ? '[image]' : ''))
    .join('\n');
}

function hasToolUse(m: Message): boolean {
  return (
    m.role === 'assistant' && Array.isArray(m.content) && (m.content as Block[]).some((b) => b?.type === 'tool_use')
  );
}

/** Where the conversation stands: the task (the latest user message with text of its own) and the steps taken since. */
export interface AgentState {
  taskIndex: number;
  taskText: string;
  stepsDone: number;
  /** tool_result blocks of the last message (what the agent "reads" now). */
  results: Array<{ id: string; text: string; isError: boolean }>;
}

/**
 * A user message that only says to go on (the chat's Continue after a budget stop, in English or Chinese): as a real
 * model would, the agent goes on with the task before it instead of taking "Continue" as a new task.
 */
const GO_ON = /^\s*(?:continue|go on|继续)[.!。！]?\s*$/i;

export function agentState(messages: Message[]): AgentState | undefined {
  let taskIndex = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const text = messages[i]?.role === 'user' ? ownText(messages[i].content) : '';
    if (text.trim() !== '' && !(GO_ON.test(text) && i > 0)) {
      taskIndex = i;
      break;
    }
  }
  if (taskIndex < 0) return undefined;
  const stepsDone = messages.slice(taskIndex + 1).filter(hasToolUse).length;
  const last = messages[messages.length - 1];
  const blocks = last?.role === 'user' && Array.isArray(last.content) ? (last.content as Block[]) : [];
  const results = blocks
    .filter((b) => b?.type === 'tool_result')
    .map((b) => ({
      id: String(b.tool_use_id ?? ''),
      text: resultText(b.content),
      isError: b.is_error === true,
    }));
  return { taskIndex, taskText: ownText(messages[taskIndex].content), stepsDone, results };
}

/** The tool steps since the task: each assistant message's tool_use blocks with the results sent back for them. */
export function stepsSinceTask(messages: Message[], taskIndex: number): PlanStep[] {
  const steps: PlanStep[] = [];
  for (let i = taskIndex + 1; i < messages.length; i++) {
    const m = messages[i];
    if (!hasToolUse(m)) continue;
    const uses = (m.content as Array<Block & { id?: unknown; name?: unknown; input?: unknown }>).filter(
      (b) => b?.type === 'tool_use',
    );
    const next = messages[i + 1];
    const replies =
      next?.role === 'user' && Array.isArray(next.content)
        ? (next.content as Block[]).filter((b) => b?.type === 'tool_result')
        : [];
    steps.push({
      calls: uses.map((u) => ({
        name: String(u.name ?? ''),
        input: u.input && typeof u.input === 'object' ? (u.input as Record<string, unknown>) : {},
      })),
      results: uses.map((u) => {
        const r = replies.find((b) => b.tool_use_id === u.id);
        return r ? { text: resultText(r.content), isError: r.is_error === true } : undefined;
      }),
    });
  }
  return steps;
}

/** A planned tool_use block with its exact offered name and input. */
export interface PlannedToolUse {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export type AgentTurn =
  | { kind: 'tools'; text: string; calls: PlannedToolUse[]; interleave: boolean }
  | { kind: 'final'; text: string; task?: string };

const EDIT_NAMES = ['propose_edit', 'edit_file', 'str_replace', 'replace_in_file', 'apply_edit'];
const RUN_NAMES = ['run_command', 'run_in_terminal', 'execute_command', 'bash', 'shell'];

/** The offered tool a shorthand means: a known name first, then any name containing the word. */
function findTool(tools: OfferedTool[], known: string[], word: RegExp): OfferedTool | undefined {
  for (const n of known) {
    const t = tools.find((x) => x.name === n);
    if (t) return t;
  }
  return tools.find((t) => word.test(t.name));
}

function props(tool: OfferedTool): Record<string, { type?: string }> {
  return (tool.input_schema as { properties?: Record<string, { type?: string }> } | undefined)?.properties ?? {};
}

function firstProp(p: Record<string, unknown>, names: string[], fallback: string): string {
  return names.find((n) => n in p) ?? fallback;
}

/** The call with its offered tool's exact name and an input shaped by that tool's schema; or why not. */
function resolveCall(
  call: ScriptCall,
  tools: OfferedTool[],
): { name: string; input: Record<string, unknown> } | string {
  if (call.kind === 'tool') {
    if (call.forced) return { name: call.name, input: call.input };
    return tools.some((t) => t.name === call.name) ? { name: call.name, input: call.input } : `\`${call.name}\``;
  }
  if (call.kind === 'run') {
    const tool = findTool(tools, RUN_NAMES, /command|terminal|shell|exec/i);
    if (!tool) return 'a command tool (for @run)';
    return {
      name: tool.name,
      input: { [firstProp(props(tool), ['command', 'cmd', 'commandLine'], 'command')]: call.command },
    };
  }
  const tool = findTool(tools, EDIT_NAMES, /edit|replace/i);
  if (!tool) return 'an edit tool (for @edit)';
  const p = props(tool);
  const pathKey = firstProp(p, ['path', 'file', 'filePath', 'file_path'], 'path');
  if (p.edits?.type === 'array')
    return {
      name: tool.name,
      input: { [pathKey]: call.path, edits: [{ search: call.search, replace: call.replace }] },
    };
  const searchKey = firstProp(p, ['search', 'old_string', 'old_str', 'oldText', 'find'], 'search');
  const replaceKey = firstProp(p, ['replace', 'new_string', 'new_str', 'newText', 'replacement'], 'replace');
  return { name: tool.name, input: { [pathKey]: call.path, [searchKey]: call.search, [replaceKey]: call.replace } };
}

/** A stable tool_use id: the same conversation gives the same ids, different steps and turns different ones. */
function toolUseId(state: AgentState, step: number, index: number): string {
  const h = createHash('sha256')
    .update(`${state.taskIndex}\u0000${state.taskText}\u0000${step}\u0000${index}`)
    .digest('hex');
  return `toolu_emu_${h.slice(0, 24)}`;
}

const firstLine = (text: string): string => {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
};

/** What the agent says about the results it just got. */
function summary(results: AgentState['results']): string {
  if (results.length === 0) return '';
  return results
    .map((r, i) => `Result ${i + 1}${r.isError ? ' (error)' : ''}: ${firstLine(r.text) || '(empty)'}`)
    .join('\n');
}

/**
 * The agent's next message, or undefined when the conversation has no directives (the caller then answers
 * like a chat model), unless `always` (the agent model) wants a summary of tool_results regardless.
 */
export function planAgentTurn(messages: Message[], tools: OfferedTool[], always: boolean): AgentTurn | undefined {
  const state = agentState(messages);
  if (!state) return undefined;
  const directives = hasAgentDirectives(state.taskText);
  if (!directives && always && tools.length > 0) {
    const steps = stepsSinceTask(messages, state.taskIndex);
    // Asked to use sub-agents and offered them: two explorers in parallel (agentDelegate.ts).
    const turn = wantsSubagents(state.taskText, tools)
      ? planDelegate(steps, tools)
      : planNaturalTurn(state.taskText, steps, tools);
    if (turn.kind === 'final') return { ...turn, task: state.taskText };
    return {
      kind: 'tools',
      text: turn.text,
      interleave: false,
      calls: turn.calls.map((c, i) => ({ id: toolUseId(state, state.stepsDone, i), ...c })),
    };
  }
  if (!directives && !(always && state.results.length > 0)) return undefined;
  const script = parseAgentScript(state.taskText);
  const heard = summary(state.results);
  // `@steps N` alone: every step calls the first offered tool with an input made from its schema.
  const steps =
    script.steps.length > 0 || tools.length === 0
      ? script.steps
      : [
          [
            {
              kind: 'tool',
              name: tools[0].name,
              input: toolInput(tools[0].input_schema, 'emulated'),
            } satisfies ScriptCall,
          ],
        ];
  if (state.stepsDone < script.total && steps.length > 0) {
    const step = steps[state.stepsDone % steps.length];
    const calls: PlannedToolUse[] = [];
    const missing: string[] = [];
    step.forEach((call, i) => {
      const r = resolveCall(call, tools);
      if (typeof r === 'string') missing.push(r);
      else calls.push({ id: toolUseId(state, state.stepsDone, i), ...r });
    });
    if (missing.length > 0) {
      const offered = tools.length > 0 ? tools.map((t) => `\`${t.name}\``).join(', ') : 'none';
      return {
        kind: 'final',
        task: state.taskText,
        text: [heard, `I cannot continue: this request offers no tool ${missing.join(', ')} (offered: ${offered}).`]
          .filter(Boolean)
          .join('\n\n'),
      };
    }
    const names = calls.map((c) => `\`${c.name}\``).join(', ');
    const text = [heard, `Step ${state.stepsDone + 1} of ${script.total}: calling ${names}.`]
      .filter(Boolean)
      .join('\n\n');
    return { kind: 'tools', text, calls, interleave: script.interleave && calls.length > 1 };
  }
  const parts = [
    script.afterResult,
    heard ? `I read ${state.results.length} tool result${state.results.length === 1 ? '' : 's'}:\n${heard}` : undefined,
    `Done after ${state.stepsDone} tool step${state.stepsDone === 1 ? '' : 's'}.`,
    ...script.errors.map((e) => `Directive not understood: ${e}`),
  ];
  return { kind: 'final', text: parts.filter(Boolean).join('\n\n'), task: state.taskText };
}
