// The project instructions an answer is sent with (pure): read once per answer (Ask, Agent and Plan), recorded on
// the answer so it shows "Using AGENTS.md", and their prompt text returned.
import type { ProjectInstructions } from '../../agent/instructions';
import type { Logger } from '../../gateway/types';
import type { ChatMessage } from '../../shared/protocol/chat';

/**
 * Reads the instructions for `message`, records which files it uses (`shown` posts the updated message) and returns
 * their prompt text. A failure to read them is logged and the answer goes out without them.
 */
export async function instructionsFor(
  read: (() => Promise<ProjectInstructions>) | undefined,
  message: ChatMessage,
  shown: () => void,
  log?: Logger,
): Promise<string> {
  if (!read) return '';
  let found: ProjectInstructions;
  try {
    found = await read();
  } catch (error) {
    log?.error('chat: reading the project instructions failed', error);
    return '';
  }
  const files = found.sources.map((s) => ({
    name: s.name,
    path: s.path,
    ...(s.truncated ? { truncated: true } : {}),
    ...(s.omitted ? { omitted: true } : {}),
  }));
  if (files.length > 0 || found.notes.length > 0) {
    message.instructions = { files, ...(found.notes.length > 0 ? { notes: found.notes } : {}) };
    shown();
  } else delete message.instructions;
  return found.prompt;
}
