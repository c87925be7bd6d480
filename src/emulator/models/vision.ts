// What the emulator's chat models "see" in an image (its own reading, independent of src/gateway and src/shared):
// the format and pixel size from the header (PNG IHDR, JPEG SOF, GIF screen, WebP VP8/VP8L/VP8X) and a hash of the
// bytes received, said in the reply, so a test proves which bytes arrived (scaled or not) over each dialect.
import { sendError } from '../errors';
import type { Ctx } from '../http';
import { see, type SeenImage } from '../imageSize';

export type { SeenImage };

/** The image blocks of a message's content (Messages form; chat-completions are mapped to it first). */
export function imagesOf(content: unknown): SeenImage[] {
  if (!Array.isArray(content)) return [];
  const out: SeenImage[] = [];
  for (const block of content as Array<Record<string, unknown>>) {
    const nested = block?.type === 'tool_result' ? imagesOf(block.content) : [];
    out.push(...nested);
    const source = block?.type === 'image' ? (block.source as Record<string, unknown> | undefined) : undefined;
    if (source?.type !== 'base64' || typeof source.data !== 'string') continue;
    out.push(see(Buffer.from(source.data, 'base64')));
  }
  return out;
}

/** The line the reply says per image: "Image 1: png 1254×940, 81234 bytes, sha256 0123456789abcdef." */
export function describeImages(images: SeenImage[]): string[] {
  return images.map(
    (im, i) => `Image ${i + 1}: ${im.format} ${im.width}×${im.height}, ${im.bytes} bytes, sha256 ${im.sha256}.`,
  );
}

/**
 * A model configured blind (vision: false) refuses a request with images as upstream APIs do (400, before billing).
 * Every chat route calls it with the messages in Messages form, so it also writes what the request's images were
 * (every image of every message, in order) to the request log: tests and the benchmark count and check them there.
 */
export function refusesImages(ctx: Ctx, model: { visible: string; upstream: string }, messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  const seen = messages.flatMap((m: { content?: unknown }) => imagesOf(m?.content));
  if (seen.length > 0) ctx.entry.images = seen;
  if (ctx.state.config.models[model.upstream]?.vision !== false || seen.length === 0) return false;
  sendError(ctx, 400, `The model ${model.visible} does not support image input.`, 'invalid_request_error');
  return true;
}
