// Which chat models reason (pure), so the composer offers its Reasoning control only where it means something.
// The gateway's model list first, where it says (LiteLLM's GET /model/info `supports_reasoning`, OpenRouter's
// `supported_parameters` naming 'reasoning' or 'reasoning_effort', a `capabilities` list naming reasoning or
// thinking), else a guess from the id. Only the control's visibility depends on it: the effort itself is the user's
// modelGateway.models.reasoning, and the gateway has the last word (advice.ts explains a refusal).
import type { ModelInfo } from '../gateway/types';

/**
 * Families that take a reasoning effort or thinking budget, by id (as the providers' model pages say): OpenAI o1 / o3
 * / o4 and GPT-5 (and codex), DeepSeek reasoner / R1, Claude 3.7 Sonnet and Claude 4 (Sonnet / Opus 4 and later),
 * QwQ and Qwen3 thinking, Gemini 2.5 and later, Grok 3 mini / Grok 4.
 */
const REASONS = [
  /(^|[/:-])o(1|3|4)(-pro|-mini)?($|[-:@])/,
  /gpt-5|codex/,
  // deepseek-reasoner, deepseek-r1 and the ids gateways give them (deepseek-demo-reasoner, deepseek-r1-0528).
  /deepseek[\w.-]*reasoner|deepseek[\w.-]*-r1\b/,
  /claude-3[-.]7|(sonnet|opus|haiku)-4|claude-(sonnet|opus|haiku)-\d/,
  /qwq|qwen3[\w.-]*thinking/,
  /gemini-(2\.5|[3-9])/,
  /grok-3-mini|grok-4/,
];

/** The guess from an id alone. */
export function guessReasoning(id: string): boolean {
  const lower = id.toLowerCase();
  return REASONS.some((p) => p.test(lower));
}

/** What the model list says, when it says anything. */
export function listedReasoning(raw: ModelInfo): boolean | undefined {
  if (typeof raw.supports_reasoning === 'boolean') return raw.supports_reasoning;
  const params = raw.supported_parameters;
  if (Array.isArray(params) && params.every((p) => typeof p === 'string'))
    return params.includes('reasoning') || params.includes('reasoning_effort');
  const caps = raw.capabilities;
  if (Array.isArray(caps) && caps.every((c) => typeof c === 'string')) {
    if (caps.includes('reasoning') || caps.includes('thinking')) return true;
  }
  return undefined;
}

/** Whether the composer offers the Reasoning control for this model: the list where it says, else the guess. */
export function modelReasons(raw: ModelInfo): boolean {
  return listedReasoning(raw) ?? guessReasoning(raw.id);
}
