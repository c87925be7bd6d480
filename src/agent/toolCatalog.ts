// Tools offered on demand: other extensions' and MCP servers' tools (bridged from vscode.lm.tools) can add thousands
// of tokens to every request (Copilot Chat's 37 tools: about 6,100), paid again on every step. The catalog offers
// them through one small tool instead: the model lists them, enables the ones it needs for this conversation, and
// from its next step on they are offered like any other tool (each call still goes through the policy: 'external'
// tools always ask). A few small ones are offered directly, as before.
import { estimateTokens } from './fit';
import type { Tool, ToolResult } from './types';

export const MORE_TOOLS_NAME = 'more_tools';

/** Bridged tools whose definitions together stay under this many tokens are offered directly (no catalog). */
export const DIRECT_TOOLS_TOKENS = 400;

const DESCRIPTION_CHARS = 160;

/** The tokens the tool definitions of `tools` add to each request (the loop's estimate). */
export function definitionTokens(
  tools: ReadonlyArray<Pick<Tool<never>, 'name' | 'description' | 'inputSchema'>>,
): number {
  if (tools.length === 0) return 0;
  return estimateTokens({
    tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
  });
}

/**
 * The tools of one step: `always`, the optional tools enabled so far (kept in `enabled`, the conversation's set),
 * and more_tools while some optional tool is not enabled yet. Call `tools()` before each step.
 */
export class ToolCatalog {
  private readonly byName: ReadonlyMap<string, Tool<never>>;
  private readonly direct: boolean;
  private readonly more: Tool<never>;

  constructor(
    private readonly always: ReadonlyArray<Tool<never>>,
    private readonly optional: ReadonlyArray<Tool<never>>,
    private readonly enabled: Set<string> = new Set(),
  ) {
    this.byName = new Map(optional.map((t) => [t.name, t]));
    this.direct = definitionTokens(optional) <= DIRECT_TOOLS_TOKENS;
    this.more = this.moreTool();
  }

  tools(): Array<Tool<never>> {
    if (this.direct) return [...this.always, ...this.optional];
    const on = this.optional.filter((t) => this.enabled.has(t.name));
    return [...this.always, ...on, ...(on.length < this.optional.length ? [this.more] : [])];
  }

  private moreTool(): Tool<never> {
    const tool: Tool<{ enable?: unknown }> = {
      name: MORE_TOOLS_NAME,
      description:
        'Lists more tools (other extensions, MCP servers) with {}; enables some for this conversation with {"enable": ["name", ...]}: they are offered from your next step on.',
      inputSchema: {
        type: 'object',
        properties: { enable: { type: 'array', items: { type: 'string' }, description: 'Tool names to enable.' } },
        additionalProperties: false,
      },
      // It changes which definitions the next request carries, nothing in the workspace.
      approvalClass: 'read',
      target: (input) => ({
        summary: Array.isArray(input.enable) ? `enable ${input.enable.map(String).join(', ')}` : 'list',
      }),
      invoke: async (input) => this.invoke(input.enable),
    };
    return tool as unknown as Tool<never>;
  }

  private async invoke(enable: unknown): Promise<ToolResult> {
    if (enable === undefined || (Array.isArray(enable) && enable.length === 0)) {
      const lines = this.optional.map(
        (t) =>
          `- ${t.name}${this.enabled.has(t.name) ? ' (enabled)' : ''}: ${t.description.replace(/\s+/g, ' ').slice(0, DESCRIPTION_CHARS)}`,
      );
      return { content: `${lines.length} more tools:\n${lines.join('\n')}` };
    }
    if (!Array.isArray(enable) || !enable.every((n) => typeof n === 'string'))
      return { content: 'The "enable" field must be an array of tool names.', isError: true };
    const unknown = enable.filter((n) => !this.byName.has(n));
    if (unknown.length > 0)
      return {
        content: `No such tool: ${unknown.join(', ')}. Call ${MORE_TOOLS_NAME} with {} to list them.`,
        isError: true,
      };
    for (const n of enable) this.enabled.add(n);
    return { content: `Enabled ${enable.join(', ')}: call them from your next step on.` };
  }
}
