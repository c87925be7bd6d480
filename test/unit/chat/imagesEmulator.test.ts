// Images end to end against the emulator over a real socket: a question with an image reaches the model as the
// bytes the page scaled (the emulator's vision model answers with the pixel size and a hash of what it received)
// over Messages, chat-completions and Responses; after a reload the stored image is sent again; a blind model's refusal gets
// one sentence and no retry; deleting the conversation deletes the image.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { imageAttachment } from '../../../src/chat/composer/imageAttachment';
import { ImageStore, type ImageStorage } from '../../../src/chat/store/imageStore';
import { createGatewayClient, type DialectSource } from '../../../src/gateway';
import type { ChatAttachment } from '../../../src/shared/protocol/chat';
import { DEMO, useEmulator } from '../emulator/helpers';
import { pngBytes } from '../../support/imageBytes';
import { GPS_DESCRIPTION, jpegWithGps, photoJpeg, pngWithText } from '../../support/imageMetadata';

const sha16 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
import { chatSession, memoryHistoryStorage } from './chatSessionFixture';
import { waitUntil } from '../../support/poll';

const chatOnly: DialectSource = { knowledge: () => ({ override: 'chat-completions' }), learned: () => undefined };
const responsesOnly: DialectSource = { knowledge: () => ({ override: 'responses' }), learned: () => undefined };

function memoryImages(): ImageStorage & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  return {
    files,
    read: async (name) => files.get(name),
    write: async (name, bytes) => void files.set(name, bytes),
    remove: async (name) => void files.delete(name),
    list: async () => [...files.keys()].map((name) => ({ name, mtime: 0 })),
  };
}

describe('chat images against the emulator', function () {
  this.timeout(30_000);
  const emulator = useEmulator();
  // What the page hands over after scaling a 4000×3000 screenshot: 1238×928 (within 1568 px and 1.15 MP).
  const scaled = pngBytes(1238, 928);
  const hash = createHash('sha256').update(scaled).digest('hex').slice(0, 16);
  const seen = `Image 1: png 1238×928, ${scaled.length} bytes, sha256 ${hash}.`;

  async function ask(options: {
    key?: string;
    model: string;
    dialects?: DialectSource;
    images?: Array<{ name: string; bytes: Buffer }>;
  }) {
    const storage = memoryHistoryStorage();
    const imageFiles = memoryImages();
    const images = new ImageStore(imageFiles);
    const t = chatSession(emulator(), {
      model: options.model,
      storage,
      images,
      getClient: async () =>
        createGatewayClient({
          baseUrl: emulator().url,
          apiKey: options.key ?? DEMO,
          maxRetries: 2,
          dialects: options.dialects,
        }),
    });
    await t.s.load();
    for (const [i, image] of (options.images ?? [{ name: 'error dialog.png', bytes: scaled }]).entries()) {
      const attachment = await imageAttachment(
        `img${i + 1}`,
        { name: image.name, data: image.bytes.toString('base64'), thumbnail: 'data:image/png;base64,AAAA' },
        images,
        i,
      );
      t.s.addAttachment(attachment as ChatAttachment);
    }
    assert.equal(t.s.send('What does the dialog say?'), undefined);
    const answer = () => t.s.store.active.messages[1];
    await waitUntil(() => answer()?.status !== undefined && answer().status !== 'streaming', 'the answer');
    return { t, storage, imageFiles, answer: answer() };
  }

  it('Messages: the model receives the scaled bytes (its pixel size and hash)', async () => {
    const { answer, storage } = await ask({ model: 'claude-demo-sonnet' });
    assert.equal(answer.status, 'complete', answer.error?.detail);
    assert.ok(answer.text.includes(seen), answer.text.slice(0, 400));
    assert.ok(![...storage.files.values()].some((f) => f.includes(scaled.toString('base64').slice(0, 200))));
  });

  it('chat-completions: the same bytes arrive as an image_url data URL', async () => {
    const { answer } = await ask({ model: 'claude-demo-sonnet', dialects: chatOnly });
    assert.equal(answer.status, 'complete', answer.error?.detail);
    assert.ok(answer.text.includes(seen), answer.text.slice(0, 400));
  });

  it('Responses: the same bytes arrive as an input_image data URL', async () => {
    const { answer } = await ask({ model: 'claude-demo-sonnet', dialects: responsesOnly });
    assert.equal(answer.status, 'complete', answer.error?.detail);
    assert.ok(answer.text.includes(seen), answer.text.slice(0, 400));
    assert.equal(emulator().billableCount('responses'), 1);
  });

  it('after a reload the stored image goes with the conversation again; deleting it removes the image', async () => {
    const first = await ask({ model: 'claude-demo-sonnet' });
    const images = new ImageStore(first.imageFiles);
    const again = chatSession(emulator(), {
      model: 'claude-demo-sonnet',
      storage: first.storage,
      images,
      getClient: async () => createGatewayClient({ baseUrl: emulator().url, apiKey: DEMO, maxRetries: 0 }),
    });
    await again.s.load();
    assert.equal(again.s.store.active.messages[0].attachments?.[0].image?.width, 1238);
    again.s.regenerate(again.s.store.active.messages[1].id);
    const answer = () => again.s.store.active.messages[1];
    await waitUntil(() => answer()?.status === 'complete' && answer().text.length > 0, 'the regenerated answer');
    assert.ok(answer().text.includes(seen));
    assert.equal(first.imageFiles.files.size, 1);
    again.s.deleteConversation(again.s.store.active.id);
    await waitUntil(() => first.imageFiles.files.size === 0, 'the image removed with its conversation');
  });

  it('a photo with GPS EXIF and a PNG whose tEXt chunk holds the key arrive without their metadata, and are stored so', async () => {
    const key = 'sk-ant-api03-' + 'K'.repeat(40) + '-inTextChunk';
    const { png, clean } = pngWithText(key);
    const photo = jpegWithGps(1);
    const { answer, imageFiles } = await ask({
      model: 'claude-demo-sonnet',
      images: [
        { name: 'holiday.jpg', bytes: photo },
        { name: 'screenshot.png', bytes: png },
      ],
    });
    assert.equal(answer.status, 'complete', answer.error?.detail);
    // What the emulator decoded from the request body: both images, no metadata block, the bytes of the clean files.
    const sent = emulator()
      .requests()
      .filter((e) => e.path === '/v1/messages')
      .at(-1);
    assert.deepEqual(
      sent?.images?.map((i) => [i.format, i.width, i.height, i.sha256, i.metadata ?? []]),
      [
        ['jpeg', 64, 48, sha16(photoJpeg()), []],
        ['png', 32, 24, sha16(clean), []],
      ],
    );
    for (const stored of imageFiles.files.values()) {
      const bytes = Buffer.from(stored);
      assert.ok(!bytes.includes(key) && !bytes.includes(GPS_DESCRIPTION) && !bytes.includes('Exif'), 'stored clean');
    }
  });

  it("a blind model's refusal of images: one request, one sentence", async () => {
    const { answer } = await ask({ key: 'mg-openai-chat-0009', model: 'gpt-demo-chat', dialects: chatOnly });
    assert.equal(answer.status, 'error');
    assert.equal(answer.error?.title, 'This model does not take images.');
    assert.match(answer.error?.detail ?? '', /does not support image input/);
    const requests = emulator()
      .requests()
      .filter((e) => e.path === '/v1/chat/completions');
    assert.equal(requests.length, 1, 'a 400 is not retried');
  });

  it("a blind model's refusal of images over Responses: one request, one sentence", async () => {
    const { answer } = await ask({ key: 'mg-openai-chat-0009', model: 'gpt-demo-chat', dialects: responsesOnly });
    assert.equal(answer.status, 'error');
    assert.equal(answer.error?.title, 'This model does not take images.');
    assert.match(answer.error?.detail ?? '', /does not support image input/);
    const requests = emulator()
      .requests()
      .filter((e) => e.path === '/v1/responses');
    assert.equal(requests.length, 1, 'a 400 is not retried');
  });
});
