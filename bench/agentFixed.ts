// Fixed tokens of an agent request (system prompt + tool definitions, paid on every step), today against now in the
// same run: an Agent and a Plan request, with no bridged tools and with 40 bridged tools the size of Copilot Chat's
// (about 165 tokens of definition each). Today every bridged tool is sent with every request; now they are behind
// one more_tools definition (src/agent/toolCatalog.ts) and Plan requests carry none. Counted with the emulator's
// tokenizer (src/emulator/promptCache.ts), which counts what the gateway is sent. The built-in tools' definitions
// are built by VS Code adapters (src/agentHost/tools) and are not loaded here: they are the same in both columns
// of a row and are left out of both (with the Agent system prompt they measured 1,229 tokens in the workbench).
import { ToolCatalog, toolsForMode, type Tool } from '../src/agent';
import { AGENT_SYSTEM_PROMPT, PLAN_SYSTEM_PROMPT } from '../src/chat/agent/agentTurn';
import { inputTokens } from '../src/emulator/promptCache';
import type { BenchRow } from './table';

/** The built-in tools' share, measured in the workbench with the Agent system prompt (issue 27). */
const BUILT_IN_WITH_PROMPT = 1229;
const TARGET = 1500;

function bridgedTool(i: number): Tool<never> {
  return {
    name: `copilot_tool_${i}`,
    description: `Extension tool ${i}: ${'does something useful with the workspace and reports the outcome; '.repeat(4)}`,
    approvalClass: 'external',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for, in plain words, as specific as possible.' },
        paths: { type: 'array', items: { type: 'string' }, description: 'Files or folders to limit the search to.' },
        maxResults: { type: 'number', description: 'The most results to return.' },
      },
      required: ['query'],
    },
    target: () => ({}),
    invoke: async () => ({ content: '' }),
  } as Tool<never>;
}

function fixedTokens(system: string, tools: ReadonlyArray<Tool<never>>): number {
  const body: Record<string, unknown> = {
    system,
    messages: [],
    tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
  };
  return inputTokens(body);
}

export async function runAgentFixedBench(): Promise<BenchRow[]> {
  const bridged = Array.from({ length: 40 }, (_v, i) => bridgedTool(i));
  const rows: BenchRow[] = [];
  for (const mode of ['agent', 'plan'] as const) {
    for (const count of [0, 40]) {
      const tools = bridged.slice(0, count);
      // Today: one mode (Agent), every bridged tool in every request.
      const today = fixedTokens(AGENT_SYSTEM_PROMPT, tools);
      const catalog = new ToolCatalog([], mode === 'plan' ? [] : tools).tools();
      const now = fixedTokens(mode === 'plan' ? PLAN_SYSTEM_PROMPT : AGENT_SYSTEM_PROMPT, toolsForMode(catalog, mode));
      const whole = now - fixedTokens(AGENT_SYSTEM_PROMPT, []) + BUILT_IN_WITH_PROMPT;
      rows.push({
        figure: `fixed tokens of ${mode === 'plan' ? 'a Plan' : 'an Agent'} request, ${count} bridged tools (system prompt + bridged definitions)`,
        baseline: `${today.toLocaleString('en-US')} today (Agent, every bridged tool)`,
        value: `${now.toLocaleString('en-US')}`,
        target: `≤ ${TARGET.toLocaleString('en-US')} with the built-in tools`,
        met: whole <= TARGET,
        note: `with the built-in tools ≈ ${whole.toLocaleString('en-US')} (their share measured in the workbench); saved per step: ${(today - now).toLocaleString('en-US')}`,
      });
    }
  }
  return rows;
}
