// The VS Code side of Agent mode: the tools (thin adapters implementing the core's Tool), edit review as
// diffs, checkpoints, and the workspace facts the approval policy needs. The chat feature creates one
// AgentHost per window and passes tools() and snapshot().policy to runAgentTurn (src/agent).
import * as vscode from 'vscode';
import type { Tool } from '../agent';
import { Checkpoints } from './checkpoints';
import { PendingChanges } from './proposals';
import {
  agentAvailability,
  snapshotWorkspace,
  type AgentStorage,
  type AgentWorkspaceSnapshot,
  type Availability,
} from './workspaceContext';
import type { Input, ToolHost } from './tools/common';
import { CommandRunner, runCommandTool, type CommandToolOptions } from './tools/command';
import { diagnosticsTool, editorContextTool } from './tools/editor';
import { createFileTool, deleteFileTool, proposeEditTool, type EditToolOptions } from './tools/edits';
import { findFilesTool, listDirectoryTool, readFileTool } from './tools/files';
import { lmBridgeTools, lmToolsAvailable } from './tools/lmBridge';
import { findRipgrep, searchTextTool } from './tools/search';

export { PROPOSAL_SCHEME, outcomeText, type ChangeOutcome, type PendingChangeInfo } from './proposals';
export type { CheckpointInfo, RestoreReport } from './checkpoints';
export type { AgentStorage, AgentWorkspaceSnapshot, Availability } from './workspaceContext';
export { lmToolsAvailable, findRipgrep };
export { excludedFromBridge } from './tools/lmBridge';
export { readProjectInstructions, readInstructionSettings } from './instructions';
export { readAgentDefinitions } from './agentDefinitions';

export interface AgentHostOptions {
  storage: AgentStorage;
  /** URI scheme of the diff sides (default model-gateway-proposal). */
  proposalScheme?: string;
  commands?: CommandToolOptions;
  edits?: EditToolOptions;
}

export interface ToolSelection {
  /** Offer the tools of vscode.lm.tools too (default true where the API exists); a function picks some. */
  vscodeTools?: boolean | ((t: vscode.LanguageModelToolInformation) => boolean);
}

export interface AgentHost extends vscode.Disposable {
  /** Agent mode needs a trusted workspace; Ask mode does not. */
  availability(): Availability;
  readonly onDidChangeAvailability: vscode.Event<Availability>;
  /** Policy settings (for runAgentTurn's `policy`), agent settings (maxSteps, …) and secret patterns, as of now. */
  snapshot(): Promise<AgentWorkspaceSnapshot>;
  /** The tools for one turn: the built-in ones, then VS Code's (names made unique). */
  tools(selection?: ToolSelection): Tool<Input>[];
  /** The same tools in two sets: the built-in ones, and those bridged from vscode.lm.tools (offered on demand). */
  toolSets(): { builtIn: Tool<Input>[]; bridged: Tool<Input>[] };
  /** Pending edits: list, open, accept, reject, acceptAll, rejectAll, onDidChange. */
  readonly changes: PendingChanges;
  /** begin, recordBeforeWrite, restore, list. */
  readonly checkpoints: Checkpoints;
  /** Starts a turn: its writes are checkpointed under `turnId` (letters, digits, _ and -). */
  beginTurn(turnId: string): Promise<void>;
  /** Ends the turn: rejects its changes still pending, stops checkpointing. */
  endTurn(): Promise<void>;
}

export function createAgentHost(options: AgentHostOptions): AgentHost {
  const root = vscode.Uri.joinPath(options.storage.storageUri ?? options.storage.globalStorageUri, 'agent-checkpoints');
  const checkpoints = new Checkpoints(root);
  const changes = new PendingChanges({
    scheme: options.proposalScheme,
    beforeWrite: async (uri) => {
      await checkpoints.recordBeforeWrite(uri);
    },
  });
  const runner = new CommandRunner(options.commands);
  const availability = new vscode.EventEmitter<Availability>();
  const trustListener = vscode.workspace.onDidGrantWorkspaceTrust(() => availability.fire(agentAvailability()));
  const host: ToolHost = {
    snapshot: () => snapshotWorkspace(options.storage),
    proposals: changes,
    checkpoints,
    trusted: () => vscode.workspace.isTrusted,
  };
  const builtIn: Tool<Input>[] = [
    readFileTool(host),
    listDirectoryTool(host),
    findFilesTool(host),
    searchTextTool(host),
    editorContextTool(host),
    diagnosticsTool(host),
    proposeEditTool(host, options.edits),
    createFileTool(host, options.edits),
    deleteFileTool(host, options.edits),
    runCommandTool(host, runner),
  ];
  return {
    availability: agentAvailability,
    onDidChangeAvailability: availability.event,
    snapshot: host.snapshot,
    tools(selection = {}) {
      if (!vscode.workspace.isTrusted) return [];
      const pick = selection.vscodeTools ?? true;
      if (pick === false) return [...builtIn];
      return [
        ...builtIn,
        ...lmBridgeTools(
          host,
          builtIn.map((t) => t.name),
          typeof pick === 'function' ? pick : undefined,
        ),
      ];
    },
    toolSets() {
      if (!vscode.workspace.isTrusted) return { builtIn: [], bridged: [] };
      return {
        builtIn: [...builtIn],
        bridged: lmBridgeTools(
          host,
          builtIn.map((t) => t.name),
        ),
      };
    },
    changes,
    checkpoints,
    beginTurn: (turnId) => checkpoints.begin(turnId),
    async endTurn() {
      const turn = checkpoints.currentTurn;
      for (const c of changes.list()) if (c.turnId === turn) await changes.reject(c.id, 'the turn ended');
      checkpoints.end();
    },
    dispose() {
      trustListener.dispose();
      availability.dispose();
      runner.dispose();
      changes.dispose();
    },
  };
}

/** For activate(): one host per window, disposed with the extension. */
export function registerAgentHost(
  context: vscode.ExtensionContext,
  options: Omit<AgentHostOptions, 'storage'> = {},
): AgentHost {
  const host = createAgentHost({ ...options, storage: context });
  context.subscriptions.push(host);
  return host;
}
