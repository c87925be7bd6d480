// What the emulated models take from a request's system prompt (never from the messages: a file the agent read
// must not steer them). Two rules, so tests can see a project's instructions and Plan mode reach the model:
//   Always start your answer(s) with "TEXT"      the final answer starts with TEXT (an AGENTS.md line, say)
//   ... checklist plan ...                        the final answer ends in a "- [ ] " checklist of the task
// Anything else in the system prompt is ignored, as before.

export interface SystemRules {
  /** The final answer starts with this text. */
  prefix?: string;
  /** The final answer ends in a checklist plan. */
  checklist: boolean;
}

const PREFIX =
  /\balways (?:start|begin) (?:your |every |each )?(?:answers?|replies|reply) with ["“]([^"”\n]{1,200})["”]/i;

/** The system prompt's text: a string or text blocks. */
export function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  if (!Array.isArray(system)) return '';
  return system
    .map((b: { type?: unknown; text?: unknown }) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .join('\n');
}

export function systemRules(system: unknown): SystemRules {
  const text = systemText(system);
  const prefix = PREFIX.exec(text)?.[1]?.trim();
  return { ...(prefix ? { prefix } : {}), checklist: /\bchecklist plan\b/i.test(text) };
}

/** A checklist plan of the task: one step per line of the task that is not a directive, then a check. */
export function checklistOf(task: string): string {
  const lines = task
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('@'))
    .slice(0, 5)
    .map((l) => `- [ ] ${l.length > 120 ? `${l.slice(0, 120)}…` : l}`);
  return ['Plan:', ...(lines.length > 0 ? lines : ['- [ ] Look into the request']), '- [ ] Check the result'].join(
    '\n',
  );
}

/** The final answer text with the system prompt's rules applied. */
export function applySystemRules(text: string, rules: SystemRules, task: string): string {
  const parts = [rules.prefix, text, rules.checklist ? checklistOf(task) : undefined];
  return parts.filter((p) => p && p.trim()).join('\n\n');
}
