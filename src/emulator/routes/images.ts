// Image routes: synchronous generation / edit, and their /async variants that create tasks.

import { charge, resolveModel } from '../access';
import { imagePrice } from '../billing';
import { sendJson, type Ctx } from '../http';
import { readImageRequest, type ImageRequest } from '../imageRequest';
import { renderPromptImage } from '../png';
import type { ImageItem } from '../state';
import { imageData } from './imageData';
import { createTask } from './tasks';

export async function handleImageGeneration(ctx: Ctx, async: boolean): Promise<void> {
  await serveImages(ctx, false, async);
}

export async function handleImageEdit(ctx: Ctx, async: boolean): Promise<void> {
  await serveImages(ctx, true, async);
}

async function serveImages(ctx: Ctx, edit: boolean, async: boolean): Promise<void> {
  const req = await readImageRequest(ctx, edit);
  if (!req) return;
  if (!resolveModel(ctx, req.model, 'images')) return;
  const price = imagePrice(ctx.state.config.prices, {
    width: req.width,
    height: req.height,
    n: req.n,
    quality: req.quality,
    references: req.sources.length,
    edit,
  });
  if (!charge(ctx, price)) return;
  const render = (): ImageItem[] => renderAll(req, edit);
  if (async) {
    createTask(ctx, render, req.responseFormat);
    return;
  }
  sendJson(ctx, 200, {
    created: Math.floor(Date.now() / 1000),
    data: imageData(ctx, render(), req.responseFormat),
    output_format: 'png',
    size: `${req.width}x${req.height}`,
    quality: req.quality ?? 'auto',
    usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
  });
}

function renderAll(req: ImageRequest, edit: boolean): ImageItem[] {
  const seed = edit
    ? `${req.prompt} [edit of ${req.sources.length} image(s)${req.mask ? ' with mask' : ''}]`
    : req.prompt;
  return Array.from({ length: req.n }, (_, i) => ({
    png: renderPromptImage(seed, req.width, req.height, i),
    revisedPrompt: req.prompt,
  }));
}
