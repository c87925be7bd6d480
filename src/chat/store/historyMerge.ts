// Merging a conversation another window saved into this window's copy (pure). Three-way, by message id: `base` is
// the conversation as this window last read or wrote it. A message only the other side has is added (unless this
// window deleted it since the base); a message this window did not change since the base takes the other side's
// version; one it changed keeps its own. A message still streaming or queued here is never replaced or removed.
import type { ChatMessage } from '../../shared/protocol/chat';
import type { Conversation } from '../session/conversation';

/** The conversation as last in step with the disk (its serialization, parsed only when a merge needs it). */
export type ConversationBase = string;

interface BaseView {
  messages: Map<string, string>;
  rest: string | undefined;
}

const restOf = (c: Conversation): string =>
  JSON.stringify({ title: c.title, titled: c.titled, overrides: c.overrides, mode: c.mode });

function viewOf(base: ConversationBase | undefined): BaseView {
  const view: BaseView = { messages: new Map(), rest: undefined };
  if (base === undefined) return view;
  try {
    const c = (JSON.parse(base) as { conversation: Conversation }).conversation;
    for (const m of c.messages) view.messages.set(m.id, JSON.stringify(m));
    view.rest = restOf(c);
  } catch {
    // no base: a union
  }
  return view;
}

const live = (m: ChatMessage): boolean => m.status === 'streaming' || m.status === 'queued';

/** Merges `theirs` into `mine` in place; true when `mine` changed. */
export function mergeConversation(
  mine: Conversation,
  theirs: Conversation,
  base: ConversationBase | undefined,
): boolean {
  const view = viewOf(base);
  let changed = false;
  const theirIds = new Map(theirs.messages.map((m) => [m.id, m]));
  // Messages the other window removed (it had them at our base) that we did not change: removed here too.
  const kept = mine.messages.filter((m) => {
    if (theirIds.has(m.id) || !view.messages.has(m.id) || live(m)) return true;
    return JSON.stringify(m) !== view.messages.get(m.id);
  });
  if (kept.length !== mine.messages.length) changed = true;
  const position = new Map(kept.map((m, i) => [m.id, i]));
  const result = [...kept];
  let previous: string | undefined;
  for (const theirsMessage of theirs.messages) {
    const ours = position.has(theirsMessage.id) ? result.find((m) => m.id === theirsMessage.id) : undefined;
    if (ours) {
      const before = view.messages.get(ours.id);
      const text = JSON.stringify(ours);
      if (!live(ours) && before !== undefined && text === before && JSON.stringify(theirsMessage) !== text) {
        // Same object kept (an answer in progress may hold it); its fields become the other window's.
        for (const key of Object.keys(ours)) delete (ours as unknown as Record<string, unknown>)[key];
        Object.assign(ours, theirsMessage);
        changed = true;
      }
    } else if (!view.messages.has(theirsMessage.id)) {
      // New in the other window: placed after the message that precedes it there.
      const at = previous === undefined ? 0 : result.findIndex((m) => m.id === previous) + 1;
      result.splice(at, 0, theirsMessage);
      changed = true;
    } else continue; // deleted here since the base
    previous = theirsMessage.id;
  }
  if (changed) mine.messages.splice(0, mine.messages.length, ...result);
  if (view.rest !== undefined && restOf(mine) === view.rest && restOf(theirs) !== view.rest) {
    mine.title = theirs.title;
    mine.titled = theirs.titled;
    mine.overrides = theirs.overrides;
    if (theirs.mode) mine.mode = theirs.mode;
    else delete mine.mode;
    changed = true;
  }
  if (theirs.updatedAt > mine.updatedAt) {
    mine.updatedAt = theirs.updatedAt;
    changed = true;
  }
  return changed;
}
