// The one token estimate (pure). The gateway has no tokenizer route and models tokenize differently, so every place
// that needs a size before the gateway reports one (the agent's context fitting, the condenser's threshold, the
// composer's context meter, VS Code's provideTokenCount, a silent gateway's usage) counts with this heuristic:
// - ASCII: 3 characters per token. English prose runs at about 4 and code at about 3.4, so this errs high;
// - any other character (CJK, accented letters, Cyrillic): one token each (CJK runs at about one); a character
//   beyond the BMP (emoji, rare CJK) two: tokenizers split most of them into 2–3 byte tokens;
// - an image block: a flat IMAGE_TOKENS instead of its base64 length: the pixel rule of src/shared/imageFormat.ts
//   (width × height / 750) for the largest image a provider keeps (~1.15 MP), so an image whose size is not read
//   counts as much as any image can.
// Erring high is the safe side: a request the estimate lets through must not be refused for its size.
//
// Calibration: once the gateway reported the input tokens of a request we estimated, `calibrationOf` gives the
// ratio of the two, clamped to [MIN_CALIBRATION, MAX_CALIBRATION], and `calibrated` applies it to the next estimate
// of the same conversation. The clamp bounds what one odd report (a router that leaves cached tokens out, a fake
// count) can do: below 0.7 the heuristic would be trusted to overcount by more than prose ever does (about 0.75),
// and a window "fitted" on it could overflow.

import { IMAGE_LIMITS, imageTokens } from './imageFormat';

export const ASCII_CHARS_PER_TOKEN = 3;
export const IMAGE_TOKENS = imageTokens(1, IMAGE_LIMITS.maxPixels);
export const MIN_CALIBRATION = 0.7;
export const MAX_CALIBRATION = 2;

/**
 * Estimate weight of `text` in ASCII-character units: an ASCII character counts 1, another ASCII_CHARS_PER_TOKEN
 * (one token), a surrogate pair twice that (two tokens). One linear pass over the code units.
 */
export function weightedChars(text: string): number {
  let weight = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length;
    // Its code units are already in `weight` (1 each): add the rest of one token, or of two for a pair.
    weight += pair ? 2 * ASCII_CHARS_PER_TOKEN - 2 : ASCII_CHARS_PER_TOKEN - 1;
    if (pair) i++;
  }
  return weight;
}

/** Tokens of an estimate weight (weightedChars, weightOf): ASCII_CHARS_PER_TOKEN units a token, rounded up. */
export function tokensOfWeight(weight: number): number {
  return Math.ceil(weight / ASCII_CHARS_PER_TOKEN);
}

/** Estimated tokens of a text. */
export function textTokens(text: string): number {
  return tokensOfWeight(weightedChars(text));
}

/**
 * Estimate weight of any request part (a message, the tools, the system prompt, a whole request body): the JSON the
 * request carries, with each image block at IMAGE_TOKENS instead of its data. A string counts as its text.
 */
export function weightOf(value: unknown): number {
  if (typeof value === 'string') return weightedChars(value);
  let images = 0;
  const json =
    JSON.stringify(value, (_k, v: unknown) => {
      if (isImageBlock(v)) {
        images++;
        return { type: 'image' };
      }
      return v;
    }) ?? '';
  return weightedChars(json) + images * IMAGE_TOKENS * ASCII_CHARS_PER_TOKEN;
}

/** Estimated tokens of any request part; `calibration` (from calibrationOf) scales it when known. */
export function estimateTokens(value: unknown, calibration?: number): number {
  return calibrated(tokensOfWeight(weightOf(value)), calibration);
}

function isImageBlock(v: unknown): boolean {
  return typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'image' && 'source' in v;
}

/**
 * The ratio of the input tokens the gateway reported for a request to our estimate of that same request, clamped;
 * undefined when either is missing or not a positive number (the heuristic applies as it is).
 */
export function calibrationOf(reportedInputTokens: number | undefined, estimatedTokens: number): number | undefined {
  if (reportedInputTokens === undefined || !(reportedInputTokens > 0) || !(estimatedTokens > 0)) return undefined;
  if (!Number.isFinite(reportedInputTokens) || !Number.isFinite(estimatedTokens)) return undefined;
  return Math.min(MAX_CALIBRATION, Math.max(MIN_CALIBRATION, reportedInputTokens / estimatedTokens));
}

/** An estimate scaled by a calibration (none: unchanged). */
export function calibrated(estimate: number, calibration: number | undefined): number {
  return calibration === undefined ? estimate : Math.ceil(estimate * calibration);
}
