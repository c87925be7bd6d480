import { sendError } from '../errors';
import type { Ctx } from '../http';

export function handleTaskRead(ctx: Ctx): void {
  sendError(ctx, 404, 'not yet');
}
