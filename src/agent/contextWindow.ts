// The model's context window (input + max_tokens, as the loop and condensing count it), from what the gateway's
// model list says about it: LiteLLM's /model/info limits merged into the cached list (max_input_tokens, also under
// model_info), claude-code-router's entries (max_input_tokens), Gemini-style input_token_limit, OpenRouter-style
// context_length and context_window (the whole window). Nothing said: DEFAULT_CONTEXT_WINDOW.
//
// The list is the gateway's data, not ours: a value outside 1,024 … 10,000,000 tokens is ignored.
import { DEFAULT_CONTEXT_WINDOW } from './loop';

const MIN_WINDOW = 1_024;
const MAX_WINDOW = 10_000_000;

/** Fields that give the input limit alone (max_tokens comes on top). */
const INPUT_FIELDS = ['max_input_tokens', 'input_token_limit'] as const;
/** Fields that give the whole window (input and output together). */
const WINDOW_FIELDS = ['context_length', 'context_window'] as const;

type Entry = Readonly<Record<string, unknown>>;

function numberIn(entry: Entry | undefined, names: readonly string[]): number | undefined {
  if (!entry) return undefined;
  for (const name of names) {
    const v = entry[name];
    if (typeof v === 'number' && Number.isFinite(v) && v >= MIN_WINDOW && v <= MAX_WINDOW) return Math.floor(v);
  }
  return undefined;
}

/** The window of the model whose list entry is `raw`, for requests of `maxTokens` output tokens. */
export function contextWindowOf(raw: Entry | undefined, maxTokens: number): number {
  const said = listedWindow(raw);
  if (said?.input) return said.tokens + Math.max(0, maxTokens);
  return said?.tokens ?? DEFAULT_CONTEXT_WINDOW;
}

/** What the list entry says, if anything: the input limit (`input`), else the whole window (the model picker). */
export function listedWindow(raw: Entry | undefined): { tokens: number; input: boolean } | undefined {
  const info =
    raw && typeof raw.model_info === 'object' && raw.model_info !== null ? (raw.model_info as Entry) : undefined;
  const input = numberIn(raw, INPUT_FIELDS) ?? numberIn(info, INPUT_FIELDS);
  if (input !== undefined) return { tokens: input, input: true };
  const window = numberIn(raw, WINDOW_FIELDS) ?? numberIn(info, WINDOW_FIELDS);
  return window === undefined ? undefined : { tokens: window, input: false };
}
