// @gateway as an agent in VS Code's chat: the sidebar's agent core (src/agent runAgentTurn) with VS Code's tools
// (vscode.lm.tools: built-in tools, MCP servers configured in VS Code, other extensions' tools, ours) as its
// tools. Each call goes through vscode.lm.invokeTool with the chat request's toolInvocationToken, so VS Code shows
// the call in the chat and applies its own confirmation and auto-approve settings (see approveInVsCodeChat).
// Text streams into the ChatResponseStream through the untrusted-markdown path; tool calls are progress lines;
// the footer names the turn's tokens. Stop (the request's CancellationToken) closes the socket and cancels the
// running tool. Kept apart from participant.ts so tests can drive it with real tools and a recording stream.
import * as vscode from 'vscode';
import {
  runAgentTurn,
  type AgentEvent,
  type AgentTurnOptions,
  type AgentTurnResult,
  type PolicySettings,
  type Tool,
  type ToolResult,
} from '../../agent';
import type { TokenCounts } from '../../shared/tokens';
import type { GatewayClient, MessageParam } from '../../gateway/types';
import { pathTarget, resolveToolPath, workspaceFolderRealPaths } from '../../agentHost/resolve';
import { capHeadTail } from '../../agentHost/text';
import { ChatMarkdownSanitizer, sanitizeLine } from '../chatMarkdown';
import {
  FOOTER_SEPARATOR,
  apiToolName,
  approveInVsCodeChat,
  inertText,
  offeredToolNames,
  pathsInInput,
  selectionOf,
  toolCallLine,
  usageFooter,
} from '../agentText';

/** Longest tool result passed to the model (head and tail kept), as for the sidebar's VS Code tools. */
export const TOOL_RESULT_CAP = 32 * 1024;

interface LmToolsApi {
  tools: readonly vscode.LanguageModelToolInformation[];
  invokeTool(
    name: string,
    options: vscode.LanguageModelToolInvocationOptions<object>,
    token?: vscode.CancellationToken,
  ): Thenable<vscode.LanguageModelToolResult>;
}

/** vscode.lm.tools and vscode.lm.invokeTool when the running VS Code has them (stable since 1.95), else undefined. */
export function lmToolsApi(): LmToolsApi | undefined {
  const lm = (vscode as unknown as { lm?: Partial<LmToolsApi> }).lm;
  return lm && Array.isArray(lm.tools) && typeof lm.invokeTool === 'function' ? (lm as LmToolsApi) : undefined;
}

/** Why @gateway cannot act as an agent in this window (plain chat still works), or undefined when it can. */
export function agentUnavailableReason(): string | undefined {
  if (!lmToolsApi())
    return `VS Code ${vscode.version} has no vscode.lm.tools / vscode.lm.invokeTool: @gateway answers without tools.`;
  if (!vscode.workspace.isTrusted) return 'Restricted Mode: @gateway calls no tools until the workspace is trusted.';
  return undefined;
}

/** The parts of a ChatRequest the agent reads (stable API; `tools` is proposed and feature-detected). */
export interface AgentChatRequest {
  readonly prompt: string;
  readonly toolReferences: readonly { readonly name: string }[];
  readonly toolInvocationToken: vscode.ChatParticipantToolToken | undefined;
  readonly tools?: unknown;
}

/** The parts of a ChatResponseStream the agent writes to. */
export interface AgentChatStream {
  markdown(value: string | vscode.MarkdownString): void;
  progress(value: string): void;
}

/** The tools of vscode.lm.tools this request offers (none unless the user attached tools with #; offeredToolNames). */
export function offeredTools(request: AgentChatRequest): vscode.LanguageModelToolInformation[] {
  const api = lmToolsApi();
  if (!api || !vscode.workspace.isTrusted) return [];
  const names = new Set(
    offeredToolNames({
      available: api.tools.map((t) => t.name),
      referenced: (request.toolReferences ?? []).map((r) => r.name),
      selection: selectionOf(request.tools),
    }),
  );
  return api.tools.filter((t) => names.has(t.name));
}

export interface GatewayAgentOptions {
  client: Pick<GatewayClient, 'streamMessage'>;
  model: string;
  maxTokens: number;
  system?: string;
  /** The conversation, ending with the user's new message. */
  messages: readonly MessageParam[];
  policy: PolicySettings;
  maxSteps: number;
  caching?: AgentTurnOptions['caching'];
  /** Removes every known secret from tool results (services.secrets.redactKnown). */
  redact?: AgentTurnOptions['redact'];
  /** Words for a failed turn (gateway errors through the shared advice, the key removed). */
  describeError?(error: unknown): Promise<string> | string;
}

/** Markdown for VS Code's chat that runs nothing: not trusted (no command links), no HTML, no theme icons. */
export function untrustedMarkdown(value: string): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString(value, false);
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  return markdown;
}

function resultText(result: vscode.LanguageModelToolResult): string {
  const parts: string[] = [];
  for (const part of result.content ?? []) {
    if (part instanceof vscode.LanguageModelTextPart) parts.push(part.value);
    else if (typeof (part as { value?: unknown })?.value === 'string') parts.push((part as { value: string }).value);
    else {
      try {
        parts.push(JSON.stringify((part as { value?: unknown })?.value ?? part));
      } catch {
        parts.push('[a result part that is not text]');
      }
    }
  }
  return parts.join('\n');
}

function tokenFrom(signal: AbortSignal): vscode.CancellationTokenSource {
  const source = new vscode.CancellationTokenSource();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', () => source.cancel(), { once: true });
  return source;
}

/** One VS Code tool as a core Tool: invoked through vscode.lm.invokeTool with the chat request's token. */
function adaptTool(
  api: LmToolsApi,
  info: vscode.LanguageModelToolInformation,
  name: string,
  invocationToken: vscode.ChatParticipantToolToken | undefined,
): Tool<Record<string, unknown>> {
  const schema =
    info.inputSchema && typeof info.inputSchema === 'object'
      ? (info.inputSchema as Record<string, unknown>)
      : undefined;
  return {
    name,
    description: (info.description || `VS Code tool ${info.name}`).slice(0, 1024),
    inputSchema: schema?.type === 'object' ? schema : { type: 'object', properties: {} },
    // Another party's tool: the core's policy treats it as external (asks), and approveInVsCodeChat answers
    // that VS Code's own confirmation asks. The paths its input names still meet the policy's refusals.
    approvalClass: 'external',
    async target(input) {
      const reals = await workspaceFolderRealPaths();
      const paths: string[] = [];
      const links: Array<{ written: string; real: string }> = [];
      for (const raw of pathsInInput(input)) {
        // A path this cannot resolve is the tool's to reject; the policy judges the ones it can.
        const resolved = await resolveToolPath(raw, reals).catch(() => undefined);
        if (!resolved) continue;
        const target = pathTarget(resolved);
        paths.push(...target.paths);
        links.push(...(target.links ?? []));
      }
      return { paths, links, summary: `${info.name}` };
    },
    async invoke(input, ctx): Promise<ToolResult> {
      const cancel = tokenFrom(ctx.signal);
      try {
        const result = await api.invokeTool(info.name, { input, toolInvocationToken: invocationToken }, cancel.token);
        return {
          content: capHeadTail(resultText(result), TOOL_RESULT_CAP).text || '(no output)',
          details: { vscodeTool: info.name },
        };
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        // VS Code rejects with a cancellation when the user chooses not to run the tool in its confirmation.
        if (error instanceof vscode.CancellationError || (error as Error | undefined)?.name === 'Canceled') {
          return { content: `The user did not allow ${info.name} to run.`, isError: true };
        }
        return {
          content: `The VS Code tool ${info.name} failed: ${error instanceof Error ? error.message : String(error)}`,
          isError: true,
        };
      } finally {
        cancel.dispose();
      }
    },
  };
}

/** Renders the core's events into VS Code's chat. */
class EventWriter {
  private readonly safe = new ChatMarkdownSanitizer();
  private wroteText = false;
  private readonly names = new Map<string, string>();

  constructor(
    private readonly stream: AgentChatStream,
    private readonly displayName: (apiName: string) => string,
  ) {}

  private write(markdown: string): void {
    if (!markdown) return;
    this.stream.markdown(untrustedMarkdown(markdown));
    this.wroteText = true;
  }

  /** Ends the current block of model text (before a progress line or a new step). */
  flush(): void {
    this.write(this.safe.end());
  }

  on(event: AgentEvent): void {
    switch (event.type) {
      case 'step_start':
        this.flush();
        if (event.step > 1 && this.wroteText) this.write('\n\n');
        break;
      case 'text':
        this.write(this.safe.push(event.text));
        break;
      case 'tool_proposed':
        this.flush();
        this.names.set(event.toolUseId, this.displayName(event.name));
        this.stream.progress(toolCallLine(this.displayName(event.name), event.input, vscode.l10n));
        break;
      case 'tool_refused':
      case 'tool_denied':
        this.flush();
        // Refusals carry the policy's reason in the user's language (`shown`); denials are @gateway's own English.
        this.write(
          `\n\n_${vscode.l10n.t('{0} was not run: {1}', inertText(this.names.get(event.toolUseId) ?? vscode.l10n.t('A tool')), inertText((event.type === 'tool_refused' ? event.shown : undefined) ?? event.reason, 300))}_\n\n`,
        );
        break;
      case 'rate_limited':
        this.stream.progress(
          vscode.l10n.t(
            'The gateway is rate limiting: waiting {0} s before step {1}…',
            Math.ceil(event.waitMs / 1000),
            event.step,
          ),
        );
        break;
      case 'context_trimmed':
        this.stream.progress(
          vscode.l10n.t('Older tool results were shortened to fit the context window ({0}).', event.results),
        );
        break;
      default:
        break;
    }
  }
}

export interface GatewayAgentResult extends vscode.ChatResult {
  metadata: {
    command: 'agent';
    model: string;
    reason: AgentTurnResult['reason'];
    steps: number;
    usage: TokenCounts;
    tools: string[];
  };
}

/**
 * Runs one agent turn for a @gateway request with the given VS Code tools. Never throws for gateway, tool or
 * cancellation failures: they end the turn, and the response says how.
 */
export async function runGatewayAgent(
  o: GatewayAgentOptions,
  request: AgentChatRequest,
  tools: readonly vscode.LanguageModelToolInformation[],
  stream: AgentChatStream,
  token: vscode.CancellationToken,
): Promise<GatewayAgentResult> {
  const api = lmToolsApi();
  const taken = new Set<string>();
  const display = new Map<string, string>();
  const adapted = api
    ? tools.map((info) => {
        const name = apiToolName(info.name, taken);
        display.set(name, info.name);
        return adaptTool(api, info, name, request.toolInvocationToken);
      })
    : [];
  const writer = new EventWriter(stream, (n) => display.get(n) ?? n);
  const controller = new AbortController();
  const listener = token.onCancellationRequested(() => controller.abort());
  if (token.isCancellationRequested) controller.abort();
  stream.progress(
    tools.length > 0
      ? vscode.l10n.t('Asking {0} (tools: {1})…', o.model, tools.map((t) => inertText(t.name, 64)).join(', '))
      : vscode.l10n.t('Asking {0} (no tools)…', o.model),
  );
  let result: AgentTurnResult;
  try {
    result = await runAgentTurn({
      client: o.client,
      model: o.model,
      maxTokens: o.maxTokens,
      system: o.system,
      messages: o.messages,
      tools: adapted,
      policy: o.policy,
      approve: async (req) => approveInVsCodeChat(req.verdict.rule),
      onEvent: (e) => writer.on(e),
      signal: controller.signal,
      maxSteps: o.maxSteps,
      caching: o.caching,
      redact: o.redact,
    });
  } finally {
    listener.dispose();
    writer.flush();
  }
  const metadata = {
    command: 'agent' as const,
    model: o.model,
    reason: result.reason,
    steps: result.steps,
    usage: result.usage,
    tools: tools.map((t) => t.name),
  };
  let errorDetails: vscode.ChatErrorDetails | undefined;
  if (result.reason === 'error' || result.reason === 'rate_limited') {
    const words = o.describeError ? await o.describeError(result.error) : result.message;
    errorDetails = { message: vscode.l10n.t('Step {0}: {1}', result.steps, words) };
  } else if (result.reason !== 'end_turn') {
    // The core's sentence: for an outcome-unknown step it says the step was not sent again (no replay).
    stream.markdown(untrustedMarkdown(`\n\n_${sanitizeLine(result.message.replace(/[_*]/g, (c) => `\\${c}`))}_`));
  }
  stream.markdown(untrustedMarkdown(`${FOOTER_SEPARATOR}${usageFooter(result.steps, result.usage, vscode.l10n)}\n`));
  return errorDetails ? { errorDetails, metadata } : { metadata };
}
