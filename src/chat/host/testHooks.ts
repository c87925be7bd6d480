// Test hooks of the chat feature (registered only under the test harness, see src/extension.ts): a host test runs an
// agent turn through the real session, deletes its conversation and reads back what the extension stored.
import * as vscode from 'vscode';
import type { AgentHost } from '../../agentHost';
import type { TestHooks } from '../../platform/commands';
import { TRANSCRIPTS_KEY } from '../store/turnTranscripts';
import type { SessionController } from '../session/session';
import type { LedgerEntry } from '../../shared/usageLedger';

/** A turn of the tests runs at most this long (a stuck one fails the test instead of waiting forever). */
const TURN_LIMIT_MS = 60_000;

export function chatTestHooks(
  context: vscode.ExtensionContext,
  session: SessionController,
  agentHost: AgentHost,
  loaded: Promise<void>,
  ledger: () => Promise<readonly LedgerEntry[]>,
): TestHooks {
  /** The active conversation's last answer: its status and what its agent turn did (cards, sub-agents, end). */
  const lastAnswer = () => {
    const message = session.store.active.messages.at(-1);
    return { status: message?.status, text: message?.text, agent: message?.agent };
  };
  /** Starts an agent turn with this model in a new conversation (throws the refusal, if any). */
  const startAgentTurn = (text: string, model: string): void => {
    session.newConversation();
    session.setSettings({ model });
    const refusal = session.setMode('agent') ?? session.send(text);
    if (refusal) throw new Error(refusal);
  };
  /** Waits for the running turn to end; `what` names it in the error of a turn that does not. */
  const turnEnded = async (what: string): Promise<void> => {
    const deadline = Date.now() + TURN_LIMIT_MS;
    while (session.busy) {
      if (Date.now() > deadline) throw new Error(`${what} did not end`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {
    /** One agent turn in a new conversation, every proposed change accepted; its conversation and turn ids. */
    chatAgentTurn: async (text: string, model: string) => {
      await loaded;
      startAgentTurn(text, model);
      const accepting = agentHost.changes.onDidChange((list) => {
        for (const change of list) void agentHost.changes.accept(change.id);
      });
      try {
        await turnEnded('the agent turn');
      } finally {
        accepting.dispose();
      }
      const conversation = session.store.active;
      return {
        conversationId: conversation.id,
        turnId: conversation.messages.at(-1)?.agent?.turnId,
        answer: lastAnswer(),
      };
    },
    /** A new Ask conversation with this model chosen in the composer; the model the composer shows. */
    chatChooseModel: async (model: string) => {
      await loaded;
      session.newConversation();
      session.setSettings({ model });
      return session.snapshot().settings.model;
    },
    /** The question asked in the open conversation, as the composer's Send does; its model and how it ended. */
    chatAsk: async (text: string) => {
      await loaded;
      const model = session.snapshot().settings.model;
      const refusal = session.send(text);
      if (refusal) throw new Error(refusal);
      await turnEnded('the answer');
      const answer = session.store.active.messages.at(-1);
      return { model, status: answer?.status, error: answer?.error?.title };
    },
    /** Starts an agent turn in a new conversation and returns at once (Stop and settings changes reach it while it runs). */
    chatAgentStart: async (text: string, model: string) => {
      await loaded;
      startAgentTurn(text, model);
      return session.store.active.id;
    },
    /** The last answer of the active conversation, and whether a turn still runs. */
    chatLastAnswer: async () => {
      await loaded;
      return { busy: session.busy, ...lastAnswer() };
    },
    /** The chat's Stop. */
    chatStop: async () => {
      await loaded;
      session.stop();
    },
    /** The usage ledger's entries (kind, model, tokens, cost). */
    chatLedger: () => ledger(),
    chatDeleteConversation: async (id: string) => {
      await loaded;
      const deleted = session.deleteConversation(id);
      await session.store.flushed();
      return deleted;
    },
    /** What is stored: the turns with a transcript, the history files, the turns with a checkpoint. */
    chatStorage: async () => {
      const transcripts = context.globalState.get<unknown>(TRANSCRIPTS_KEY);
      const files = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(context.globalStorageUri, 'chat')).then(
        (entries) => entries.map(([name]) => name),
        () => [] as string[],
      );
      return {
        transcripts: Array.isArray(transcripts) ? transcripts.map((t: { turnId?: unknown }) => t.turnId) : [],
        files,
        checkpoints: (await agentHost.checkpoints.list()).map((c) => c.turnId),
      };
    },
  };
}
