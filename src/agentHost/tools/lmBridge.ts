// Tools that VS Code itself exposes (vscode.lm.tools: MCP servers the user configured, other extensions'
// tools), offered to the model as 'external' tools (always asked) and invoked through vscode.lm.invokeTool.
// Feature-detected: older VS Code builds, and hosts without the chat API, have no lm.tools.
import * as vscode from 'vscode';
import type { Tool, ToolResult } from '../../agent';
import { capHeadTail } from '../text';
import { errorResult, UNTRUSTED, type Input, type ToolHost } from './common';
import { tokenFrom } from './files';

export const EXTERNAL_RESULT_CAP = 32 * 1024;

interface LmApi {
  tools?: readonly vscode.LanguageModelToolInformation[];
  invokeTool?: typeof vscode.lm.invokeTool;
}

function lmApi(): LmApi | undefined {
  const lm = (vscode as unknown as { lm?: LmApi }).lm;
  return lm && Array.isArray(lm.tools) && typeof lm.invokeTool === 'function' ? lm : undefined;
}

/** True when this VS Code exposes vscode.lm.tools and vscode.lm.invokeTool. */
export function lmToolsAvailable(): boolean {
  return lmApi() !== undefined;
}

const OWN_EXTENSION_ID = 'model-gateway.model-gateway';

/**
 * Tools never bridged: this extension's own (VS Code's chat gets them; the agent has its own, and bridging them
 * back would loop our billable image calls through another approval path), and tools their owner marks as
 * internal (`*_internal`, e.g. an editor-internal file edit that would bypass the diff review and checkpoints).
 */
export function excludedFromBridge(name: string): boolean {
  if (/_internal$/.test(name)) return true;
  const own =
    (
      vscode.extensions.getExtension(OWN_EXTENSION_ID)?.packageJSON as
        { contributes?: { languageModelTools?: Array<{ name?: unknown }> } } | undefined
    )?.contributes?.languageModelTools ?? [];
  return own.some((t) => t.name === name);
}

/** Messages API tool names: letters, digits, _ and -, at most 64. */
function apiName(name: string, taken: Set<string>): string {
  let base = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'tool';
  if (taken.has(base)) base = `vscode_${base}`.slice(0, 64);
  let n = 2;
  let out = base;
  while (taken.has(out)) out = `${base.slice(0, 60)}_${n++}`;
  taken.add(out);
  return out;
}

function resultText(result: vscode.LanguageModelToolResult): string {
  const parts: string[] = [];
  for (const part of result.content) {
    if (part instanceof vscode.LanguageModelTextPart) parts.push(part.value);
    else if (part && typeof (part as { value?: unknown }).value === 'string')
      parts.push((part as { value: string }).value);
    else {
      try {
        parts.push(JSON.stringify((part as { value?: unknown }).value ?? part));
      } catch {
        parts.push('[a result part that is not text]');
      }
    }
  }
  return parts.join('\n');
}

/**
 * Wraps each tool of vscode.lm.tools (names the core's own tools already use get a `vscode_` prefix).
 * `filter` picks which to offer: every tool definition is sent (and paid for) with every request.
 */
export function lmBridgeTools(
  host: ToolHost,
  reservedNames: readonly string[],
  filter?: (t: vscode.LanguageModelToolInformation) => boolean,
): Tool<Input>[] {
  const lm = lmApi();
  if (!lm) return [];
  const taken = new Set(reservedNames);
  const out: Tool<Input>[] = [];
  for (const info of lm.tools ?? []) {
    if (excludedFromBridge(info.name) || (filter && !filter(info))) continue;
    const name = apiName(info.name, taken);
    const schema =
      info.inputSchema && typeof info.inputSchema === 'object'
        ? (info.inputSchema as Record<string, unknown>)
        : { type: 'object', properties: {} };
    out.push({
      name,
      description: (info.description || `VS Code tool ${info.name}`).split('\n')[0].slice(0, 1000),
      inputSchema: schema.type === 'object' ? schema : { type: 'object', properties: {} },
      approvalClass: 'external',
      // The tool card's line (the user reads it); the model sees the tool by its name and description.
      target: () => ({
        summary: info.tags.length
          ? vscode.l10n.t('Run the VS Code tool {0} ({1})', info.name, info.tags.slice(0, 3).join(', '))
          : vscode.l10n.t('Run the VS Code tool {0}', info.name),
      }),
      async invoke(input, ctx): Promise<ToolResult> {
        if (!host.trusted()) return errorResult(UNTRUSTED);
        const cancel = tokenFrom(ctx.signal);
        try {
          const result = await lm.invokeTool!(info.name, { input, toolInvocationToken: undefined }, cancel.token);
          return {
            content: capHeadTail(resultText(result), EXTERNAL_RESULT_CAP).text || '(no output)',
            details: { vscodeTool: info.name },
          };
        } catch (e) {
          return errorResult(`The VS Code tool ${info.name} failed: ${e instanceof Error ? e.message : String(e)}`);
        } finally {
          cancel.dispose();
        }
      },
    });
  }
  return out;
}
