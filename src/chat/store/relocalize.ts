// Stored agent turns keep the words of the window that ran them: an end line and tool cards saved in an English window
// read "已完成。 The agent finished." and "Read src/text.js" in a Chinese one (issue 45 item 14). On load, a stored
// sentence that is one of these English templates (its {n} filled in) is said again in the user's language, with the
// same values. Anything else (a translated sentence, a model's words, an unknown template) stays as it was.
import type { Localizer } from '../../shared/l10n';

/**
 * The English templates of what a stored turn shows in words of ours: tool card summaries (src/agentHost/tools) and
 * end messages (src/agent/usage.ts). Each is the exact key of l10n/bundle.l10n.json (a unit test checks that).
 */
export const STORED_TEMPLATES: readonly string[] = [
  'Read {0}',
  'Read {0} from line {1}',
  'Read {0} lines {1}–{2}',
  'List {0}',
  'Find files matching {0}',
  'Search for {0}',
  'Create {0}',
  'Delete {0}',
  'Edit {0} (whole file)',
  'Edit {0} (1 block)',
  'Edit {0} ({1} blocks)',
  'Run the VS Code tool {0} ({1})',
  'Read the active editor and the list of open editors',
  'Read the problems of the workspace',
  'Read the problems of {0}',
  'The agent finished.',
  'The answer ended at a stop sequence.',
  'The answer reached its length limit (max tokens).',
  'The model declined to continue.',
  'Stopped after {0} steps: the step budget of this turn is used up. Continue to let the agent go on.',
  'Stopped: this turn used {0} tokens of its budget of {1}. Continue to let the agent go on.',
  "Stopped before the next request: it would pass today's budget for this key (modelGateway.budget.daily). Continue to let the agent go on anyway.",
  "The conversation no longer fits the model's context window, even with older tool results shortened. Start a new conversation.",
  'Stopped.',
  'Step {0} was cut off ({1}). The gateway may have processed and billed it, so it was not sent again: retry it if you want.',
  'The gateway is rate limiting ({0}). Try again later.',
  'Step {0} failed: {1}',
  'The turn ended when the window was closed.',
  'The turn ended before this call finished (the window was closed).',
  'The turn ended before this call finished.',
];

interface Matcher {
  template: string;
  pattern: RegExp;
  /** Which argument each capture group fills ({1} may come before {0} in no English template, but stay general). */
  order: number[];
}

/** Most literal text first: "Read {0} from line {1}" is tried before "Read {0}". */
const MATCHERS: Matcher[] = STORED_TEMPLATES.map((template) => {
  const order: number[] = [];
  const source = template
    .split(/(\{\d+\})/)
    .map((part) => {
      const arg = /^\{(\d+)\}$/.exec(part);
      if (!arg) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      order.push(Number(arg[1]));
      return '([\\s\\S]+?)';
    })
    .join('');
  return { template, pattern: new RegExp(`^${source}$`), order };
}).sort((a, b) => b.template.replace(/\{\d+\}/g, '').length - a.template.replace(/\{\d+\}/g, '').length);

/** `text` in the user's language when it is one of the English templates, else `text` unchanged. */
export function relocalized(text: string, l10n: Localizer): string {
  for (const m of MATCHERS) {
    const hit = m.pattern.exec(text);
    if (!hit) continue;
    const args: string[] = [];
    m.order.forEach((index, group) => (args[index] = hit[group + 1]));
    return l10n.t(m.template, ...args);
  }
  return text;
}
