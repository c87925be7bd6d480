import * as assert from 'node:assert/strict';
import { createGatewayClient, resolvePollUrl, type ImageTask } from '../../../src/gateway';
import { progressOf, statusOf, taskIdOf, taskOf } from '../../../src/gateway/images/tasks';
import { json, startServer, type TestServer } from './server';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(...args: Parameters<typeof startServer>): Promise<TestServer> {
  const s = await startServer(...args);
  servers.push(s);
  return s;
}
const FAST_POLL = { pollBackoff: { baseMs: 5, maxMs: 20 }, retryBackoff: { baseMs: 5, maxMs: 10 } };

describe('task vocabularies', () => {
  it('maps every status word of docs/gateway-protocol.md#async-image-tasks, case-insensitively', () => {
    for (const w of ['queued', 'pending', 'submitted', 'NOT_START', 'processing', 'in_progress', 'Running'])
      assert.equal(statusOf(w, false), 'pending', w);
    for (const w of ['completed', 'succeeded', 'SUCCESS', 'complete', 'done'])
      assert.equal(statusOf(w, false), 'succeeded', w);
    for (const w of ['failed', 'failure', 'error', 'cancelled', 'canceled', 'expired'])
      assert.equal(statusOf(w, false), 'failed', w);
    assert.equal(statusOf(undefined, true), 'succeeded');
    assert.equal(statusOf('mystery', false), 'pending');
  });

  it('reads progress as a number, a fraction or "NN%"', () => {
    assert.equal(progressOf(45), 45);
    assert.equal(progressOf('45%'), 45);
    assert.equal(progressOf(0.5), 50);
    assert.equal(progressOf('x'), undefined);
    assert.equal(progressOf(250), 100);
  });

  it('finds the id: task_id ?? id ?? data (string) ?? result (string), also when wrapped in data', () => {
    assert.equal(taskIdOf({ id: 'a', task_id: 'b' }), 'b');
    assert.equal(taskIdOf({ id: 'a' }), 'a');
    assert.equal(taskIdOf({ code: 'success', data: 'c' }), 'c');
    assert.equal(taskIdOf({ result: 'd' }), 'd');
    assert.equal(taskIdOf({ code: 'success', data: { task_id: 'e', status: 'queued' } }), 'e');
    assert.equal(taskIdOf({}), undefined);
  });

  it('finds images in result.data ?? data ?? results ?? image_url | result_url, URL or base64', () => {
    const base = 'https://gw';
    assert.deepEqual(
      taskOf({ status: 'completed', result: { data: [{ url: 'https://c/1.png' }] } }, 't', base).images,
      [{ url: 'https://c/1.png' }],
    );
    assert.deepEqual(
      taskOf({ status: 'succeeded', data: [{ b64_json: 'QUJDREVGR0hJSktMTU5PUA==' }] }, 't', base).images,
      [{ b64: 'QUJDREVGR0hJSktMTU5PUA==' }],
    );
    assert.deepEqual(taskOf({ status: 'done', results: ['https://c/2.png'] }, 't', base).images, [
      { url: 'https://c/2.png' },
    ]);
    assert.deepEqual(taskOf({ status: 'success', image_url: 'https://c/3.png' }, 't', base).images, [
      { url: 'https://c/3.png' },
    ]);
    assert.deepEqual(taskOf({ status: 'success', result_url: 'https://c/4.png' }, 't', base).images, [
      { url: 'https://c/4.png' },
    ]);
    const failed = taskOf({ status: 'FAILED', error: { message: 'content policy' } }, 't', base);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error, 'content policy');
    assert.equal(taskOf({ status: 'expired' }, 't', base).expired, true);
    assert.equal(taskOf({ status: 'processing', progress: '30%' }, 't', base).progress, 30);
  });

  it('resolves poll URLs against the base URL, keeping its prefix; other origins are refused', () => {
    assert.equal(
      resolvePollUrl('https://gw.example.com/proxy', '/v1/images/tasks/t1'),
      'https://gw.example.com/proxy/v1/images/tasks/t1',
    );
    assert.equal(
      resolvePollUrl('https://gw.example.com/proxy', '/proxy/v1/images/tasks/t1'),
      'https://gw.example.com/proxy/v1/images/tasks/t1',
    );
    assert.equal(
      resolvePollUrl('https://gw.example.com', 'v1/images/tasks/t1'),
      'https://gw.example.com/v1/images/tasks/t1',
    );
    assert.equal(
      resolvePollUrl('https://gw.example.com', 'https://gw.example.com/v1/images/tasks/t1?x=1'),
      'https://gw.example.com/v1/images/tasks/t1?x=1',
    );
    assert.equal(resolvePollUrl('https://gw.example.com', 'https://evil.example.net/v1/images/tasks/t1'), undefined);
    assert.equal(resolvePollUrl('https://gw.example.com', '//evil.example.net/x'), undefined);
    assert.equal(resolvePollUrl('https://gw.example.com', 'http://gw.example.com/x'), undefined);
  });
});

describe('async image tasks against a server', () => {
  it('submits (202 + Location + Retry-After) and reads the ref', async () => {
    const s = await serve((_req, res) =>
      json(
        res,
        202,
        { id: 'imgtask_1', task_id: 'imgtask_1', object: 'image.generation.task', status: 'processing' },
        { location: '/v1/images/tasks/imgtask_1', 'retry-after': '3' },
      ),
    );
    const ref = await createGatewayClient({ baseUrl: s.url, apiKey: 'k' }).submitImageTask('generation', {
      model: 'gpt-image-demo',
      prompt: 'p',
      size: '1024x1024',
    });
    assert.equal(s.requests[0].url, '/v1/images/generations/async');
    assert.equal(s.requests[0].headers['authorization'], 'Bearer k');
    assert.deepEqual(
      { id: ref.id, status: ref.status, pollUrl: ref.pollUrl, retryAfterMs: ref.retryAfterMs },
      { id: 'imgtask_1', status: 'pending', pollUrl: `${s.url}/v1/images/tasks/imgtask_1`, retryAfterMs: 3000 },
    );
  });

  it('edits go to /v1/images/edits/async; poll_url wins over Location', async () => {
    const s = await serve((_req, res) =>
      json(res, 202, { task_id: 't2', poll_url: '/v1/images/tasks/t2?v=2' }, { location: '/elsewhere' }),
    );
    const ref = await createGatewayClient({ baseUrl: s.url, apiKey: 'k' }).submitImageTask('edit', {
      model: 'm',
      prompt: 'p',
      images: [{ data: new Uint8Array([1, 2]) }],
    });
    assert.equal(s.requests[0].url, '/v1/images/edits/async');
    assert.equal(ref.pollUrl, `${s.url}/v1/images/tasks/t2?v=2`);
  });

  it('waits: Retry-After honoured between polls, progress reported, images returned', async () => {
    const times: number[] = [];
    const s = await serve((_req, res, _b, seen) => {
      times.push(Date.now());
      if (seen.length < 3)
        return json(
          res,
          200,
          { id: 't', status: 'in_progress', progress: `${seen.length * 30}%` },
          { 'retry-after-ms': '80' },
        );
      json(res, 200, { id: 't', status: 'completed', result: { data: [{ url: 'https://cdn/x.png' }] } });
    });
    const updates: ImageTask[] = [];
    const task = await createGatewayClient({ baseUrl: s.url, apiKey: 'k', ...FAST_POLL }).waitForImageTask('t', {
      onUpdate: (t) => updates.push(t),
    });
    assert.equal(task.status, 'succeeded');
    assert.deepEqual(task.images, [{ url: 'https://cdn/x.png' }]);
    assert.deepEqual(
      updates.map((u) => u.progress),
      [30, 60, undefined],
    );
    assert.equal(s.requests[0].url, '/v1/images/tasks/t');
    assert.ok(
      times[1] - times[0] >= 75 && times[2] - times[1] >= 75,
      `gaps ${times[1] - times[0]}, ${times[2] - times[1]}`,
    );
  });

  it('backs off without Retry-After and keeps polling through a transient 503', async () => {
    const s = await serve((_req, res, _b, seen) => {
      if (seen.length === 2) return json(res, 503, { error: 'busy' });
      if (seen.length < 4) return json(res, 200, { status: 'queued' });
      json(res, 200, { status: 'success', data: ['https://cdn/y.png'] });
    });
    const task = await createGatewayClient({ baseUrl: s.url, apiKey: 'k', ...FAST_POLL }).waitForImageTask('t');
    assert.equal(task.status, 'succeeded');
    assert.equal(s.requests.length, 4);
  });

  it('a 404 on a known id is a failed, expired task (one request, no retry loop)', async () => {
    const s = await serve((_req, res) => json(res, 404, { error: { message: 'task not found' } }));
    const task = await createGatewayClient({ baseUrl: s.url, apiKey: 'k', ...FAST_POLL }).waitForImageTask('gone');
    assert.deepEqual({ status: task.status, expired: task.expired }, { status: 'failed', expired: true });
    assert.equal(s.requests.length, 1);
  });

  it('never sends the key to another origin: a foreign poll URL is ignored', async () => {
    const foreign = await serve((_req, res) => json(res, 200, { status: 'completed', data: ['https://cdn/z.png'] }));
    const s = await serve((_req, res) => json(res, 200, { status: 'completed', data: ['https://cdn/ok.png'] }));
    const task = await createGatewayClient({ baseUrl: s.url, apiKey: 'secret-key-1' }).getImageTask('t9', {
      pollUrl: `${foreign.url}/v1/images/tasks/t9`,
    });
    assert.deepEqual(task.images, [{ url: 'https://cdn/ok.png' }]);
    assert.equal(foreign.requests.length, 0);
    assert.equal(s.requests[0].url, '/v1/images/tasks/t9');
  });

  it('a failed task carries the gateway message', async () => {
    const s = await serve((_req, res) => json(res, 200, { task_id: 't', status: 'FAILURE', fail_reason: 'nsfw' }));
    const task = await createGatewayClient({ baseUrl: s.url, apiKey: 'k' }).getImageTask('t');
    assert.deepEqual(
      { status: task.status, error: task.error, rawStatus: task.rawStatus },
      { status: 'failed', error: 'nsfw', rawStatus: 'FAILURE' },
    );
  });
});
