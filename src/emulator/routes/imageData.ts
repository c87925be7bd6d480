// The `data` array of image replies (sync routes and completed tasks).

import type { Ctx } from '../http';
import { newId, type ImageItem } from '../state';

/** The `data` array: base64 by default, or URLs served by the emulator under /files. */
export function imageData(ctx: Ctx, items: ImageItem[], format: 'url' | 'b64_json'): Array<Record<string, string>> {
  return items.map((item): Record<string, string> => {
    if (format === 'b64_json') return { b64_json: item.png.toString('base64'), revised_prompt: item.revisedPrompt };
    const id = newId('img_');
    ctx.state.sweep(Date.now());
    ctx.state.files.set(id, { png: item.png, expiresAt: Date.now() + 3600_000 });
    return { url: `${ctx.origin}/files/${id}.png`, revised_prompt: item.revisedPrompt };
  });
}
