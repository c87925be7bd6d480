import * as assert from 'node:assert/strict';
import {
  needsResume,
  parseTaskRecord,
  pollDeadline,
  transition,
  TransitionError,
  type TaskRecord,
} from '../../../src/images/taskRecord';
import { TASKS_STORAGE_KEY, TaskTracker, type KeyValueStore } from '../../../src/images/tracker';
import { checkImage, saveTaskImages, type FileSink } from '../../../src/images/saver';
import { parseSidecar } from '../../../src/images/sidecar';
import { timestampPart } from '../../../src/images/naming';
import { pngHeader } from './fixtures';

/** globalState stand-in: values go through JSON like the real Memento, so nothing is shared by reference. */
class JsonStore implements KeyValueStore {
  readonly data = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const v = this.data.get(key);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, JSON.stringify(value));
  }
}

/** A folder in memory; `failAfterWrites` simulates the window reloading in the middle of a save. */
class MemorySink implements FileSink {
  readonly files = new Map<string, Uint8Array>();
  writes = 0;
  failAfterWrites = Infinity;
  async listNames(folder: string[]): Promise<string[]> {
    const prefix = folder.length ? `${folder.join('/')}/` : '';
    return [...this.files.keys()]
      .filter((k) => k.startsWith(prefix))
      .map((k) => k.slice(prefix.length))
      .filter((k) => !k.includes('/'));
  }
  async write(path: string[], bytes: Uint8Array): Promise<void> {
    if (this.writes >= this.failAfterWrites) throw new Error('window reloaded');
    this.writes++;
    this.files.set(path.join('/'), bytes);
  }
}

const request = {
  kind: 'generation' as const,
  prompt: 'A lighthouse at dusk',
  model: 'gpt-image-demo',
  size: '1024x1024',
  n: 2,
};
const newTask = { request, workspaceFolder: 'file:///ws', outputFolder: 'images' };
const images = () => [checkImage(pngHeader(1024, 1024)), checkImage(pngHeader(1024, 1024), 'a lighthouse, dusk')];

describe('images/taskRecord state machine', () => {
  const base: TaskRecord = {
    version: 1,
    localId: 'l1',
    request,
    submittedAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    workspaceFolder: 'file:///ws',
    outputFolder: 'images',
    state: 'submitting',
  };
  const now = new Date('2026-11-21T10:01:00.000Z');

  it('a pending task that ran out of time ends as unknown (outcome unknown), final, with its reason', () => {
    const pending = transition(base, { type: 'submitted', taskId: 't1' }, now);
    const timedOut = transition(pending, { type: 'timedOut', error: 'check the console' }, now);
    assert.equal(timedOut.state, 'unknown');
    assert.equal(timedOut.error, 'check the console');
    assert.equal(needsResume(timedOut), false);
    assert.throws(() => transition(timedOut, { type: 'saving', files: ['images/a.png'] }, now), TransitionError);
  });

  it('a submission another activation took for orphaned (a reload mid-submission) ends with its own outcome', () => {
    // resumeOnActivation marks a 'submitting' record nobody in that activation follows as unknown; the POST of
    // the first activation (or another window on the folder) may still answer afterwards.
    const orphaned = transition(base, { type: 'submitUnknown', error: 'the window closed' }, now);
    assert.equal(orphaned.state, 'unknown');
    const accepted = transition(orphaned, { type: 'submitted', taskId: 't1', pollUrl: 'http://gw/t1' }, now);
    assert.deepEqual([accepted.state, accepted.taskId, needsResume(accepted)], ['pending', 't1', true]);
    assert.equal(transition(orphaned, { type: 'submitFailed', error: 'HTTP 403' }, now).state, 'failed');
    assert.equal(transition(orphaned, { type: 'submitUnknown', error: 'timeout' }, now).state, 'unknown');
    // A pending task whose polling ran out has had its answer: no submission outcome can follow.
    const timedOut = transition(
      transition(base, { type: 'submitted', taskId: 't2' }, now),
      { type: 'timedOut', error: 'check the console' },
      now,
    );
    assert.throws(() => transition(timedOut, { type: 'submitted', taskId: 't2' }, now), TransitionError);
  });

  it('polling ends images.taskTimeoutMinutes after the submission, whenever the follower started', () => {
    assert.equal(pollDeadline(base, 30 * 60_000), Date.parse('2026-11-21T10:30:00.000Z'));
    assert.equal(pollDeadline({ submittedAt: 'garbage' }, 1000), undefined);
  });

  it('follows submitting → pending → saving → saved', () => {
    const pending = transition(base, { type: 'submitted', taskId: 't1', pollUrl: 'http://gw/v1/images/tasks/t1' }, now);
    assert.equal(pending.state, 'pending');
    assert.equal(pending.taskId, 't1');
    const saving = transition(pending, { type: 'saving', files: ['images/a.png'] }, now);
    const saved = transition(saving, { type: 'saved', files: ['images/a.png'] }, now);
    assert.equal(saved.state, 'saved');
    assert.equal(saved.updatedAt, now.toISOString());
  });

  it('saved, failed, expired and unknown are final; a second save is refused', () => {
    const saved: TaskRecord = { ...base, state: 'saved', files: ['images/a.png'] };
    assert.throws(() => transition(saved, { type: 'saving', files: ['images/b.png'] }, now), TransitionError);
    for (const state of ['failed', 'expired', 'unknown'] as const) {
      assert.throws(() => transition({ ...base, state }, { type: 'resumed' }, now), TransitionError);
    }
  });

  it('an interrupted save may only resume into the same reserved names', () => {
    const saving: TaskRecord = { ...base, state: 'saving', taskId: 't', files: ['images/a.png'] };
    assert.equal(transition(saving, { type: 'saving', files: ['images/a.png'] }, now).state, 'saving');
    assert.throws(() => transition(saving, { type: 'saving', files: ['images/b.png'] }, now), TransitionError);
  });

  it('cancelled tasks can be resumed explicitly but are not resumed on activation', () => {
    const cancelled: TaskRecord = { ...base, state: 'cancelled', taskId: 't' };
    assert.equal(needsResume(cancelled), false);
    assert.equal(transition(cancelled, { type: 'resumed' }, now).state, 'pending');
    assert.throws(() => transition(base, { type: 'cancelled' }, now), TransitionError);
  });

  it('drops malformed stored records', () => {
    assert.equal(parseTaskRecord({ ...base, state: 'weird' }), undefined);
    assert.equal(parseTaskRecord({ ...base, version: 2 }), undefined);
    assert.equal(parseTaskRecord({ ...base, request: { prompt: 1 } }), undefined);
    assert.equal(parseTaskRecord(null), undefined);
    assert.deepEqual(parseTaskRecord(base), base);
  });
});

describe('images/tracker', () => {
  it('persists the task id before resolving, and never stores a key-like field', async () => {
    const store = new JsonStore();
    const tracker = new TaskTracker(store);
    const record = await tracker.begin(newTask);
    assert.equal(new TaskTracker(store).get(record.localId)?.state, 'submitting');
    await tracker.apply(record.localId, { type: 'submitted', taskId: 'imgtask_1' });
    const reloaded = new TaskTracker(store).get(record.localId);
    assert.equal(reloaded?.state, 'pending');
    assert.equal(reloaded?.taskId, 'imgtask_1');
    assert.doesNotMatch(store.data.get(TASKS_STORAGE_KEY) ?? '', /mg-|key|authorization/i);
  });

  it('claim() hands the save to one caller at a time', async () => {
    const tracker = new TaskTracker(new JsonStore());
    const { localId } = await tracker.begin(newTask);
    assert.equal(tracker.claim(localId), false, 'not claimable before the gateway accepted it');
    await tracker.apply(localId, { type: 'submitted', taskId: 't' });
    assert.equal(tracker.claim(localId), true);
    assert.equal(tracker.claim(localId), false);
    tracker.release(localId);
    assert.equal(tracker.claim(localId), true);
  });

  it('serialises concurrent updates without losing records', async () => {
    const tracker = new TaskTracker(new JsonStore());
    const records = await Promise.all(Array.from({ length: 10 }, () => tracker.begin(newTask)));
    await Promise.all(records.map((r, i) => tracker.apply(r.localId, { type: 'submitted', taskId: `t${i}` })));
    assert.equal(tracker.list().length, 10);
    assert.ok(tracker.list().every((r) => r.state === 'pending'));
  });

  it('keeps unfinished records when pruning old final ones', async () => {
    let time = new Date('2026-11-01T00:00:00Z');
    const tracker = new TaskTracker(new JsonStore(), () => time);
    const old = await tracker.begin(newTask);
    await tracker.apply(old.localId, { type: 'submitFailed', error: 'x' });
    const open = await tracker.begin(newTask);
    time = new Date('2026-11-21T00:00:00Z');
    await tracker.begin(newTask);
    const ids = tracker.list().map((r) => r.localId);
    assert.ok(!ids.includes(old.localId));
    assert.ok(ids.includes(open.localId));
  });
});

describe('images/saver: exactly once across a reload', () => {
  async function acceptedTask(store: JsonStore) {
    const tracker = new TaskTracker(store);
    const { localId } = await tracker.begin(newTask);
    await tracker.apply(localId, { type: 'submitted', taskId: 'imgtask_7' });
    return { tracker, localId };
  }

  it('saves images and sidecars, then marks the task saved', async () => {
    const store = new JsonStore();
    const sink = new MemorySink();
    const { tracker, localId } = await acceptedTask(store);
    assert.ok(tracker.claim(localId));
    const record = await saveTaskImages(tracker, localId, images(), sink);
    assert.equal(record.state, 'saved');
    const stamp = timestampPart(new Date(record.submittedAt));
    const base = `images/a-lighthouse-at-dusk-${stamp}`;
    assert.deepEqual([...sink.files.keys()].sort(), [
      `${base}-1.json`,
      `${base}-1.png`,
      `${base}-2.json`,
      `${base}-2.png`,
    ]);
    const sidecar = parseSidecar(new TextDecoder().decode(sink.files.get(record.files![1].replace('.png', '.json'))));
    assert.equal(sidecar?.taskId, 'imgtask_7');
    assert.equal(sidecar?.revisedPrompt, 'a lighthouse, dusk');
    assert.equal(sidecar?.width, 1024);
    tracker.release(localId);
    assert.equal(tracker.claim(localId), false, 'a saved task is never claimable again');
  });

  it('a reload in the middle of writing completes into the same files: one set, nothing lost', async () => {
    const store = new JsonStore();
    const sink = new MemorySink();
    sink.files.set('images/unrelated.png', pngHeader(1, 1));
    const first = await acceptedTask(store);
    sink.failAfterWrites = 1; // the first image is written, then the window goes away
    assert.ok(first.tracker.claim(first.localId));
    await assert.rejects(saveTaskImages(first.tracker, first.localId, images(), sink), /window reloaded/);
    assert.equal(first.tracker.get(first.localId)?.state, 'saving');

    // "Reload": a new tracker over the same globalState; the old process' claim is gone.
    const tracker = new TaskTracker(store);
    sink.failAfterWrites = Infinity;
    assert.ok(tracker.claim(first.localId));
    const saved = await saveTaskImages(tracker, first.localId, images(), sink);
    assert.equal(saved.state, 'saved');
    const pngs = [...sink.files.keys()].filter((k) => k.endsWith('.png'));
    assert.equal(pngs.length, 3, `unrelated + 2 images, got ${pngs.join(', ')}`);
    assert.deepEqual(saved.files, first.tracker.get(first.localId)?.files ?? saved.files);
    assert.ok(saved.files!.every((f) => sink.files.has(f)));

    // A third activation finds nothing to do.
    const again = new TaskTracker(store);
    assert.equal(again.claim(first.localId), false);
    assert.equal(again.list().filter(needsResume).length, 0);
  });

  it('never overwrites files that were already there', async () => {
    const store = new JsonStore();
    const sink = new MemorySink();
    const { tracker, localId } = await acceptedTask(store);
    const planned = await saveTaskImages(tracker, localId, images(), new MemorySink());
    const existing = pngHeader(9, 9);
    sink.files.set(planned.files![0], existing);
    const other = await acceptedTask(store);
    const record = await saveTaskImages(other.tracker, other.localId, images(), sink);
    assert.notEqual(record.files![0], planned.files![0]);
    assert.equal(sink.files.get(planned.files![0]), existing);
  });

  it('rejects bytes that are not an image before writing anything', () => {
    assert.throws(() => checkImage(new TextEncoder().encode('<html>error</html>')), /not a PNG, JPEG, WebP or GIF/);
  });

  it('refuses a stored output folder that leaves the workspace', async () => {
    const store = new JsonStore();
    const tracker = new TaskTracker(store);
    const { localId } = await tracker.begin({ ...newTask, outputFolder: '../outside' });
    await tracker.apply(localId, { type: 'submitted', taskId: 't' });
    const sink = new MemorySink();
    await assert.rejects(saveTaskImages(tracker, localId, images(), sink), /leaves the workspace/);
    assert.equal(sink.files.size, 0);
  });
});
