// Task shapes of real gateways (docs/gateway-protocol.md#real-gateways): new-api's own async variant, Midjourney-style
// and video-style tasks, every failure reason kept; and the polling bound (the task's own expiry, or the
// caller's deadline): a task that never reaches a known final state ends as "outcome unknown".
import * as assert from 'node:assert/strict';
import { createGatewayClient } from '../../../src/gateway';
import { taskOf } from '../../../src/gateway/images/tasks';
import { json, startServer, type TestServer } from './server';

const BASE = 'https://gw';
const FAST_POLL = { pollBackoff: { baseMs: 5, maxMs: 20 }, retryBackoff: { baseMs: 5, maxMs: 10 } };

describe('task shapes of real gateways', () => {
  it('new-api async: 202 {success, data:{task_id, status:"submitted"}} is pending with its id', () => {
    const t = taskOf({ success: true, data: { task_id: 'task_1', status: 'submitted', created_at: 1 } }, 'x', BASE);
    assert.equal(t.id, 'task_1');
    assert.equal(t.status, 'pending');
  });
  it('new-api async: {success, data:{status:"processing", progress:"40%"}} is pending at 40', () => {
    const t = taskOf({ success: true, data: { status: 'processing', progress: '40%' } }, 'task_1', BASE);
    assert.equal(t.status, 'pending');
    assert.equal(t.progress, 40);
  });
  it('new-api async: finished as a plain image body (no status field)', () => {
    const t = taskOf({ created: 1, data: [{ url: 'https://c/1.png' }] }, 'task_1', BASE);
    assert.equal(t.status, 'succeeded');
    assert.deepEqual(t.images, [{ url: 'https://c/1.png' }]);
  });
  it('new-api async: finished as {data:{url}, created}', () => {
    const t = taskOf({ data: { url: 'https://c/2.png' }, created: 1 }, 'task_1', BASE);
    assert.equal(t.status, 'succeeded');
    assert.deepEqual(t.images, [{ url: 'https://c/2.png' }]);
  });
  it('new-api async: a failure keeps fail_reason', () => {
    const t = taskOf(
      { success: true, data: { status: 'failure', fail_reason: 'prompt rejected by the safety system' } },
      'task_1',
      BASE,
    );
    assert.equal(t.status, 'failed');
    assert.equal(t.error, 'prompt rejected by the safety system');
  });
  it('Midjourney-style: IN_PROGRESS / NOT_START / SUBMITTED pending, progress "NN%"', () => {
    for (const status of ['IN_PROGRESS', 'NOT_START', 'SUBMITTED']) {
      const t = taskOf({ id: 'mj1', status, progress: '15%' }, 'mj1', BASE);
      assert.equal(t.status, 'pending', status);
      assert.equal(t.progress, 15);
    }
  });
  it('Midjourney-style: SUCCESS with camelCase imageUrl', () => {
    const t = taskOf({ id: 'mj1', status: 'SUCCESS', progress: '100%', imageUrl: 'https://cdn/mj.png' }, 'mj1', BASE);
    assert.equal(t.status, 'succeeded');
    assert.deepEqual(t.images, [{ url: 'https://cdn/mj.png' }]);
  });
  it('Midjourney-style: FAILURE keeps failReason', () => {
    const t = taskOf({ id: 'mj1', status: 'FAILURE', failReason: 'banned prompt: xyz' }, 'mj1', BASE);
    assert.equal(t.status, 'failed');
    assert.equal(t.error, 'banned prompt: xyz');
  });
  it('video-style: output:[{url}]', () => {
    const t = taskOf({ task_id: 'v1', status: 'succeeded', output: [{ url: 'https://cdn/v.png' }] }, 'v1', BASE);
    assert.equal(t.status, 'succeeded');
    assert.deepEqual(t.images, [{ url: 'https://cdn/v.png' }]);
  });
  it("the task's own expiry is read (expires_at in seconds or ISO)", () => {
    assert.equal(taskOf({ status: 'processing', expires_at: 1_700_000_000 }, 't', BASE).expiresAt, 1_700_000_000_000);
    assert.equal(
      taskOf({ status: 'processing', expires_at: '2026-01-01T00:00:00Z' }, 't', BASE).expiresAt,
      Date.parse('2026-01-01T00:00:00Z'),
    );
  });
});

describe('task polling ends', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a task past the deadline that is still pending ends as outcome unknown, after one read', async () => {
    let reads = 0;
    server = await startServer((_req, res) => {
      reads++;
      json(res, 200, { task_id: 't1', status: 'mystery-state' });
    });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', ...FAST_POLL });
    const task = await client.waitForImageTask('t1', { deadline: Date.now() - 1 });
    assert.equal(task.status, 'pending');
    assert.equal(task.outcomeUnknown, true);
    assert.equal(reads, 1);
  });

  it('a task past its own expires_at ends as outcome unknown (no deadline given)', async () => {
    let reads = 0;
    server = await startServer((_req, res) => {
      reads++;
      json(res, 200, { task_id: 't2', status: 'processing', expires_at: Math.floor(Date.now() / 1000) - 10 });
    });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', ...FAST_POLL });
    const task = await client.waitForImageTask('t2');
    assert.equal(task.outcomeUnknown, true);
    assert.equal(reads, 1);
  });

  it('cancel still ends the wait', async () => {
    server = await startServer((_req, res) => json(res, 200, { task_id: 't3', status: 'processing' }));
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', pollBackoff: { baseMs: 50, maxMs: 50 } });
    const controller = new AbortController();
    const waiting = client.waitForImageTask('t3', {
      signal: controller.signal,
      onUpdate: () => controller.abort(),
    });
    await assert.rejects(waiting, (e: { kind?: string }) => e.kind === 'aborted');
  });
});
