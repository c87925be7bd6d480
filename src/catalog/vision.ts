// Which chat models read images (pure; docs/gateway-protocol.md#images-the-model-can-see). The gateway's model list
// first, where it says (LiteLLM's GET /model/info `supports_vision`, OpenRouter-style `architecture.input_modalities`
// or `architecture.modality`, a `capabilities` list or object naming vision), then the user's
// modelGateway.models.vision (id → true/false), then a guess from the id. The guess only decides whether a chip sent
// to the model asks first and whether VS Code's chat offers image attachments: the gateway still has the last word.
import type { ModelInfo } from '../gateway/types';

export type VisionSource = 'list' | 'setting' | 'guess';

export interface Vision {
  vision: boolean;
  source: VisionSource;
}

/**
 * Families that read images, by id (as the providers' model pages say): Claude 3 and later, GPT-4o / 4.1 / 4.5 / 5,
 * GPT-4 Turbo and vision previews, o1 / o3 / o4-mini (not o1-mini, o3-mini), Gemini and Gemma 3, Qwen-VL / QVQ /
 * Qwen-Omni, GLM-4V / 4.xV, Llama 3.2 Vision and Llama 4, Pixtral, Mistral Small / Medium 3.1+, Grok vision and Grok 4,
 * InternVL, MiniCPM-V, Kimi-VL, DeepSeek-VL, Doubao vision, Step-1V, LLaVA, Moondream.
 */
const SEES = [
  // Every Claude since 3 (2024) reads images; only Claude 1, 2 and Instant did not.
  /claude/,
  /gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-4-turbo|gpt-4-vision|chatgpt-4o/,
  /(^|[/:-])o(1|3|4)(-pro|-mini)?($|[-:@])/,
  /gemini|gemma-?3/,
  /qwen[\w.-]*-?vl|qvq|qwen[\w.-]*omni/,
  /glm-[\d.]+v/,
  /llama-?3\.2[\w.-]*vision|llama-?4/,
  /pixtral|mistral-(small|medium)-(3\.[1-9]|2[5-9])/,
  /grok[\w.-]*vision|grok-4/,
  /internvl|minicpm-v|kimi-vl|deepseek-vl|doubao[\w.-]*vision|step-1v|llava|moondream/,
];
/** Ids inside a seeing family that do not read images (the small reasoning models, audio and codex variants). */
const BLIND = [
  /claude-(1|2|instant)/,
  /(^|[/:-])o1-mini|(^|[/:-])o3-mini|gpt-4o[\w.-]*(audio|transcribe|tts|realtime|search)/,
];

/** The guess from an id alone. */
export function guessVision(id: string): boolean {
  const lower = id.toLowerCase();
  if (BLIND.some((p) => p.test(lower))) return false;
  return SEES.some((p) => p.test(lower));
}

/** What the model list says, when it says anything. */
export function listedVision(raw: ModelInfo): boolean | undefined {
  if (typeof raw.supports_vision === 'boolean') return raw.supports_vision;
  const arch = raw.architecture;
  if (typeof arch === 'object' && arch !== null) {
    const a = arch as Record<string, unknown>;
    if (Array.isArray(a.input_modalities)) return a.input_modalities.includes('image');
    if (typeof a.modality === 'string' && a.modality.includes('->'))
      return a.modality.split('->')[0].split('+').includes('image');
  }
  const caps = raw.capabilities;
  if (Array.isArray(caps) && caps.every((c) => typeof c === 'string')) {
    if (caps.includes('vision') || caps.includes('image_input')) return true;
  } else if (typeof caps === 'object' && caps !== null) {
    const c = caps as Record<string, unknown>;
    for (const key of ['vision', 'image_input', 'imageInput'])
      if (typeof c[key] === 'boolean') return c[key] as boolean;
  }
  return undefined;
}

/** Whether the model reads images, and where that came from. `setting`: modelGateway.models.vision. */
export function modelVision(raw: ModelInfo, setting: Readonly<Record<string, boolean>> = {}): Vision {
  const listed = listedVision(raw);
  if (listed !== undefined) return { vision: listed, source: 'list' };
  const own = Object.entries(setting).find(([id]) => id.toLowerCase() === raw.id.toLowerCase());
  if (own) return { vision: own[1], source: 'setting' };
  return { vision: guessVision(raw.id), source: 'guess' };
}
