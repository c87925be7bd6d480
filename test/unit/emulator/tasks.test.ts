// Async image tasks: 202 + Location + Retry-After, processing → completed / failed, per-key visibility, expiry.

import { strict as assert } from 'node:assert';
import { defaultConfig } from '../../../src/emulator';
import { pngSize, renderPromptImage } from '../../../src/emulator/png';
import { ALT, DEMO, imageHeaders, post, useEmulator } from './helpers';

interface TaskBody {
  id: string;
  task_id: string;
  status: string;
  progress?: number;
  poll_url?: string;
  object?: string;
  result?: { data: Array<{ b64_json?: string; url?: string }> };
  error?: { message: string };
  created_at: number;
  expires_at: number;
  completed_at?: number;
}

describe('emulator: async image tasks', () => {
  const emu = useEmulator(() => {
    const c = defaultConfig();
    c.tasks = { durationMs: 60_000, retryAfterSec: 1, ttlMs: 60_000 };
    return c;
  });

  async function submit(
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
    path = '/v1/images/generations/async',
  ): Promise<{ res: Response; body: TaskBody }> {
    const res = await post(
      emu(),
      path,
      { model: 'gpt-image-demo', prompt: 'a task', size: '64x32', ...extra },
      { ...imageHeaders(), ...headers },
    );
    return { res, body: (await res.json()) as TaskBody };
  }

  async function read(
    id: string,
    key = DEMO,
    headers: Record<string, string> = {},
  ): Promise<{ res: Response; body: TaskBody }> {
    const res = await fetch(`${emu().url}/v1/images/tasks/${id}`, {
      headers: { authorization: `Bearer ${key}`, ...headers },
    });
    return { res, body: (await res.json()) as TaskBody };
  }

  it('submit answers 202 with Location, Retry-After and a processing task', async () => {
    const { res, body } = await submit();
    assert.equal(res.status, 202);
    assert.match(body.id, /^imgtask_/);
    assert.equal(body.task_id, body.id);
    assert.equal(body.status, 'processing');
    assert.equal(body.object, 'image.generation.task');
    assert.equal(res.headers.get('location'), `/v1/images/tasks/${body.id}`);
    assert.equal(body.poll_url, res.headers.get('location'));
    assert.equal(res.headers.get('retry-after'), '1');
    assert.ok(body.expires_at > body.created_at);
    const polled = await read(body.id);
    assert.equal(polled.body.status, 'processing');
    assert.equal(polled.res.headers.get('retry-after'), '1');
    assert.ok(typeof polled.body.progress === 'number' && polled.body.progress < 100);
  });

  it('completes: processing → completed with PNGs, and reading again gives the same images', async () => {
    const { body } = await submit({ n: 2 }, { 'x-emulator-fault': '{"taskDurationMs":50}' });
    let last: TaskBody = body;
    for (let i = 0; i < 100 && last.status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      last = (await read(body.id)).body;
    }
    assert.equal(last.status, 'completed');
    assert.equal(last.progress, 100);
    assert.ok(last.completed_at);
    assert.equal(last.result?.data.length, 2);
    assert.deepEqual(pngSize(Buffer.from(last.result!.data[0].b64_json!, 'base64')), { width: 64, height: 32 });
    assert.deepEqual((await read(body.id)).body.result, last.result);
  });

  it('edits/async with response_format=url: the URL serves the PNG', async () => {
    const src = `data:image/png;base64,${renderPromptImage('s', 16, 16).toString('base64')}`;
    const { res, body } = await submit(
      { images: [{ image_url: src }], response_format: 'url' },
      { 'x-emulator-fault': '{"taskDurationMs":0}' },
      '/v1/images/edits/async',
    );
    assert.equal(res.status, 202);
    assert.equal(body.object, 'image.edit.task');
    const done = (await read(body.id)).body;
    assert.equal(done.status, 'completed');
    const file = await fetch(done.result!.data[0].url!);
    assert.equal(file.headers.get('content-type'), 'image/png');
    assert.deepEqual(pngSize(Buffer.from(await file.arrayBuffer())), { width: 64, height: 32 });
  });

  it('taskFails: the task ends as failed with an error message', async () => {
    const { body } = await submit({}, { 'x-emulator-fault': '{"taskDurationMs":0,"taskFails":true}' });
    const failed = (await read(body.id)).body;
    assert.equal(failed.status, 'failed');
    assert.match(failed.error?.message ?? '', /failure/);
  });

  it('taskHeld: a task past its duration stays processing while held, and completes once let go', async () => {
    const { body } = await submit({}, { 'x-emulator-fault': '{"taskDurationMs":0}' });
    const held = (await read(body.id, DEMO, { 'x-emulator-fault': '{"taskHeld":true}' })).body;
    assert.equal(held.status, 'processing');
    assert.equal((await read(body.id)).body.status, 'completed');
  });

  it('a task is readable only by the key that created it (404 otherwise)', async () => {
    const { body } = await submit();
    const other = await read(body.id, ALT);
    assert.equal(other.res.status, 404);
    assert.match(JSON.stringify(other.body), /expired or belongs to another key/);
    assert.equal((await read('imgtask_unknown')).res.status, 404);
  });

  it('a task is charged once at submit; polling is not billable', async () => {
    const before = emu().balance(DEMO)!;
    const { body } = await submit();
    await read(body.id);
    await read(body.id);
    assert.ok(emu().balance(DEMO)! < before);
    assert.equal(emu().billableCount(), 1);
    assert.equal(emu().billableCount('images.generations.async'), 1);
  });
});

describe('emulator: task expiry', () => {
  const emu = useEmulator(() => {
    const c = defaultConfig();
    c.tasks = { durationMs: 0, retryAfterSec: 1, ttlMs: 1000 };
    return c;
  });

  it('after ttlMs the task reads as 404', async () => {
    const res = await post(
      emu(),
      '/v1/images/generations/async',
      { model: 'gpt-image-demo', prompt: 'p', size: '16x16' },
      imageHeaders(),
    );
    const { id } = (await res.json()) as { id: string };
    const read = (): Promise<Response> =>
      fetch(`${emu().url}/v1/images/tasks/${id}`, { headers: { authorization: `Bearer ${DEMO}` } });
    assert.equal((await read()).status, 200);
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await read()).status, 404);
  });
});
