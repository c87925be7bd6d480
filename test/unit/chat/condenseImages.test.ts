// Condensing replaces older images by a one-line note: the summary request gets "[image: name, W×H]" for an image
// attached to a condensed question (and "[image: W×H]" for a tool result's image), never the image's bytes, and the
// requests after condensing do not send those images again.
import { strict as assert } from 'node:assert';
import { CONDENSE_PROMPT, condenseRequest } from '../../../src/chat/condense/condense';
import { imageAttachment } from '../../../src/chat/composer/imageAttachment';
import { ImageStore, type ImageStorage } from '../../../src/chat/store/imageStore';
import type { MessageParam } from '../../../src/gateway/types';
import type { ChatAttachment } from '../../../src/shared/protocol/chat';
import { pngBytes } from '../../support/imageBytes';
import { useEmulator } from '../emulator/helpers';
import { agentSession } from './chatSessionFixture';

function memoryImages(): ImageStorage {
  const files = new Map<string, Uint8Array>();
  return {
    read: async (name) => files.get(name),
    write: async (name, bytes) => void files.set(name, bytes),
    remove: async (name) => void files.delete(name),
    list: async () => [...files.keys()].map((name) => ({ name, mtime: 0 })),
  };
}

describe('condensing images', function () {
  this.timeout(60_000);
  const emulator = useEmulator();
  const png = pngBytes(64, 48);
  const data = png.toString('base64');

  it("a tool result's image in the summary request is a note with its size, not the image", () => {
    const older: MessageParam[] = [
      { role: 'user', content: 'Look at the screenshot' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'read_file', input: { path: 'a.png' } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'c1',
            content: [
              { type: 'text', text: 'a.png' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
            ],
          },
        ],
      },
    ];
    const body = JSON.stringify(condenseRequest('m', older));
    assert.match(body, /Result: a\.png\\n\| \[image: 64×48\]/);
    assert.ok(!body.includes(data.slice(0, 40)), 'no image bytes');
  });

  it('the Condense action: the summary request names the older image in one line, later requests leave it out', async () => {
    const images = new ImageStore(memoryImages());
    const t = agentSession({ emulator: emulator(), tools: () => [], askThroughGateway: true, images });
    await t.s.load();
    const attachment = await imageAttachment(
      'img1',
      { name: 'error dialog.png', data, thumbnail: 'data:image/png;base64,AAAA' },
      images,
      0,
    );
    t.s.addAttachment(attachment as ChatAttachment);
    await t.sendUntilFinished('Question 1: what does the dialog say?');
    assert.ok(JSON.stringify(t.sent[0].messages).includes(data), 'the image went with its question');
    await t.sendUntilFinished('Question 2');
    await t.sendUntilFinished('Question 3');
    const before = t.sent.length;
    assert.equal(await t.s.condense(), undefined);
    const condensing = t.sent.slice(before);
    assert.equal(condensing.length, 1);
    assert.equal(condensing[0].system, CONDENSE_PROMPT);
    const summaryRequest = JSON.stringify(condensing[0].messages);
    assert.match(summaryRequest, /User: \[image: error dialog\.png, 64×48\]/);
    // (The emulator's answer quotes the question with its label; the question's own line is the note.)
    assert.doesNotMatch(summaryRequest, /User: Image `error dialog\.png`/, 'the note replaces the label line');
    assert.ok(!summaryRequest.includes(data.slice(0, 40)), 'the image is not sent to the summary request');

    await t.sendUntilFinished('Question 4');
    const next = JSON.stringify(t.sent[t.sent.length - 1].messages);
    assert.match(next, /Summary of the earlier conversation/);
    assert.ok(!next.includes(data.slice(0, 40)), 'not re-sent after condensing');
  });

  it('the Condense action after a reload: the image is still named as an image, not as gone', async () => {
    const files = memoryImages();
    const first = agentSession({
      emulator: emulator(),
      tools: () => [],
      askThroughGateway: true,
      images: new ImageStore(files),
    });
    await first.s.load();
    const attachment = await imageAttachment(
      'img1',
      { name: 'error dialog.png', data, thumbnail: 'data:image/png;base64,AAAA' },
      new ImageStore(files),
      0,
    );
    first.s.addAttachment(attachment as ChatAttachment);
    await first.sendUntilFinished('Question 1: what does the dialog say?');
    await first.sendUntilFinished('Question 2');
    await first.sendUntilFinished('Question 3');
    // A reload: a new session and image store over the same files; nothing is read into memory until a request.
    const t = agentSession({
      emulator: emulator(),
      tools: () => [],
      askThroughGateway: true,
      images: new ImageStore(files),
      storage: first.storage,
      state: first.state,
    });
    await t.s.load();
    assert.equal(await t.s.condense(), undefined);
    assert.equal(t.sent.length, 1);
    const summaryRequest = JSON.stringify(t.sent[0].messages);
    assert.match(summaryRequest, /User: \[image: error dialog\.png, 64×48\]/);
    assert.doesNotMatch(summaryRequest, /no longer stored/);
  });
});
