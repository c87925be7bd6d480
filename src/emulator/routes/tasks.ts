// Async image tasks: 202 on submit, then GET /v1/images/tasks/<id> (processing → completed | failed; expiry → 404).

import { sendError } from '../errors';
import { sendJson, type Ctx } from '../http';
import { newId, type ImageItem, type Task } from '../state';
import { imageData } from './imageData';

const seconds = (ms: number): number => Math.floor(ms / 1000);

/** Creates a task for the calling key and answers 202 with Location and Retry-After. */
export function createTask(ctx: Ctx, render: () => ImageItem[], responseFormat: 'url' | 'b64_json'): void {
  const { tasks } = ctx.state.config;
  const now = Date.now();
  const task: Task = {
    id: newId('imgtask_'),
    key: ctx.key!.key,
    route: ctx.route,
    createdAt: now,
    durationMs: ctx.faults.taskDurationMs ?? tasks.durationMs,
    fails: ctx.faults.taskFails === true,
    expiresAt: now + tasks.ttlMs,
    render,
    responseFormat,
  };
  ctx.state.sweep(now);
  ctx.state.tasks.set(task.id, task);
  const location = `/v1/images/tasks/${task.id}`;
  sendJson(
    ctx,
    202,
    {
      id: task.id,
      task_id: task.id,
      object: ctx.route.startsWith('images.edits') ? 'image.edit.task' : 'image.generation.task',
      status: 'processing',
      created_at: seconds(now),
      expires_at: seconds(task.expiresAt),
      poll_url: location,
    },
    { location, 'retry-after': String(tasks.retryAfterSec) },
  );
}

export function handleTaskRead(ctx: Ctx): void {
  const id = safeDecode(ctx.url.pathname.slice('/v1/images/tasks/'.length));
  const task = ctx.state.tasks.get(id);
  const now = Date.now();
  // Another key's task is indistinguishable from a missing one: ids must not leak across keys.
  if (!task || task.key !== ctx.key!.key || task.expiresAt <= now) {
    sendError(ctx, 404, `Task ${id} not found: it expired or belongs to another key.`, 'task_not_found');
    return;
  }
  const elapsed = now - task.createdAt;
  const base = {
    id: task.id,
    task_id: task.id,
    created_at: seconds(task.createdAt),
    expires_at: seconds(task.expiresAt),
  };
  if (elapsed < task.durationMs || ctx.faults.taskHeld === true) {
    const progress = Math.min(99, Math.floor((elapsed / Math.max(1, task.durationMs)) * 100));
    sendJson(
      ctx,
      200,
      { ...base, status: 'processing', progress },
      { 'retry-after': String(ctx.state.config.tasks.retryAfterSec) },
    );
    return;
  }
  const completedAt = seconds(task.createdAt + task.durationMs);
  if (task.fails) {
    sendJson(ctx, 200, {
      ...base,
      status: 'failed',
      progress: 100,
      completed_at: completedAt,
      error: {
        code: 'generation_failed',
        message: 'Emulated task failure: the upstream model could not generate the image.',
      },
    });
    return;
  }
  task.result ??= imageData(ctx, task.render(), task.responseFormat);
  sendJson(ctx, 200, {
    ...base,
    status: 'completed',
    progress: 100,
    completed_at: completedAt,
    result: { data: task.result },
  });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
