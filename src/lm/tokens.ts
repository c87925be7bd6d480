// Pure: token estimates for provideTokenCount, by the one estimate (src/shared/tokenEstimate.ts): text as the
// shared heuristic counts it, each message with a small fixed overhead for the role and turn markers, and images
// by their pixels (the bytes are at hand here). VS Code uses these numbers to decide how much context fits into
// maxInputTokens, so an underestimate would let a request overflow the model. Once a response of a model reported
// its input tokens, the ratio to our estimate of those messages calibrates that model's next counts.
import { imageTokens, readImageHeader, scaledSize } from '../shared/imageFormat';
import { IMAGE_TOKENS, calibrated, calibrationOf, textTokens } from '../shared/tokenEstimate';
import type { NeutralMessage, NeutralPart } from './requestMapping';

export const MESSAGE_OVERHEAD_TOKENS = 4;

/** The last calibration per model id, held by the provider (its requests of this window; few models, no bound). */
export class ModelCalibrations {
  private readonly byModel = new Map<string, number>();

  /** Records what the gateway reported for a request against our estimate of its messages. */
  calibrate(modelId: string, reportedInputTokens: number | undefined, estimate: number): void {
    const ratio = calibrationOf(reportedInputTokens, estimate);
    if (ratio !== undefined) this.byModel.set(modelId, ratio);
  }

  /** Estimated tokens of a text or a message for `modelId`, calibrated by that model's last reported request. */
  countTokens(modelId: string, item: string | NeutralMessage): number {
    const estimate = typeof item === 'string' ? textTokens(item) : estimateMessageTokens(item);
    return calibrated(estimate, this.byModel.get(modelId));
  }
}

function partText(part: NeutralPart): string {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'toolCall':
      return part.name + JSON.stringify(part.input ?? {});
    case 'toolResult':
      return part.content;
    case 'image':
      return '';
  }
}

/** An image as the model bills it: its pixels as the provider scales them (at most ~1.15 MP), width×height/750. */
function imagePartTokens(part: NeutralPart): number {
  if (part.kind !== 'image') return 0;
  const header = readImageHeader(Buffer.from(part.data.slice(0, 200_000), 'base64'));
  if (!header) return IMAGE_TOKENS;
  const size = scaledSize(header.width, header.height);
  return imageTokens(size.width, size.height);
}

export function estimateMessageTokens(message: NeutralMessage): number {
  return (
    MESSAGE_OVERHEAD_TOKENS +
    message.parts.reduce((sum, part) => sum + textTokens(partText(part)) + imagePartTokens(part), 0)
  );
}
