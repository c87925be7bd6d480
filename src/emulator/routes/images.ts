// Image routes (placeholder until the full implementation lands).
import { sendError } from '../errors';
import type { Ctx } from '../http';

export async function handleImageGeneration(ctx: Ctx, _async: boolean): Promise<void> {
  sendError(ctx, 501, 'not yet');
}
export async function handleImageEdit(ctx: Ctx, _async: boolean): Promise<void> {
  sendError(ctx, 501, 'not yet');
}
