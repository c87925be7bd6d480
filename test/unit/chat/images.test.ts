// Images the model can see, host side: formats read from real bytes, the scaling rule, the store (once per content,
// removed with the conversation), the host's checks of what the page hands over, the history and the request.
import { strict as assert } from 'node:assert';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { parseConversation, serializeConversation } from '../../../src/chat/store/history';
import { imageAttachment } from '../../../src/chat/composer/imageAttachment';
import { ImageStore, sha256Hex, type ImageStorage } from '../../../src/chat/store/imageStore';
import { buildMessagesRequest, imageBytesOf, NO_IMAGES, toMessageParams } from '../../../src/chat/ask/requestBuilder';
import { toChatRequest } from '../../../src/gateway/dialects/chatMapping';
import { IMAGE_LIMITS, imageTokens, readImageHeader, scaledSize } from '../../../src/shared/imageFormat';
import type { ChatAttachment, ChatMessage } from '../../../src/shared/protocol/chat';
import {
  animatedGifBytes,
  jpegHeaderBytes,
  notAPng,
  pngBytes,
  webpVp8lHeader,
  webpVp8xHeader,
} from '../../support/imageBytes';
import type { ContentBlockParam, ThinkingBlockParam } from '../../../src/gateway/types';
/** The Messages blocks an image request carries: our thinking blocks may lack a signature (chat-completions'
 * reasoning_content), which the Anthropic SDK's type requires; these requests carry none. */
type SentMessages = Array<{
  role: 'user' | 'assistant';
  content: string | Exclude<ContentBlockParam, ThinkingBlockParam>[];
}>;

const THUMB = 'data:image/webp;base64,UklGRg==';

function memoryImages(): ImageStorage & { files: Map<string, { bytes: Uint8Array; mtime: number }>; writes: number } {
  const files = new Map<string, { bytes: Uint8Array; mtime: number }>();
  const storage = {
    files,
    writes: 0,
    read: async (name: string) => files.get(name)?.bytes,
    write: async (name: string, bytes: Uint8Array) => {
      storage.writes++;
      files.set(name, { bytes, mtime: 0 });
    },
    remove: async (name: string) => void files.delete(name),
    list: async () => [...files].map(([name, f]) => ({ name, mtime: f.mtime })),
  };
  return storage;
}

const message = (role: 'user' | 'assistant', text: string, attachments?: ChatAttachment[]): ChatMessage => ({
  id: `m${Math.random().toString(36).slice(2)}`,
  role,
  text,
  status: 'complete',
  createdAt: 0,
  ...(attachments ? { attachments } : {}),
});

describe('images: formats and limits', () => {
  it('reads the pixel size of PNG, GIF, JPEG (after an EXIF block) and WebP from the header', () => {
    assert.deepEqual(readImageHeader(pngBytes(40, 30)), { mediaType: 'image/png', width: 40, height: 30 });
    assert.deepEqual(readImageHeader(animatedGifBytes(4, 3)), {
      mediaType: 'image/gif',
      width: 4,
      height: 3,
      animated: true,
    });
    assert.equal(readImageHeader(animatedGifBytes(4, 3, [0]))?.animated, false);
    assert.deepEqual(readImageHeader(jpegHeaderBytes(4000, 3000, 3, 30_000)), {
      mediaType: 'image/jpeg',
      width: 4000,
      height: 3000,
      components: 3,
    });
    assert.equal(readImageHeader(jpegHeaderBytes(640, 480, 4))?.components, 4, 'a CMYK JPEG says so');
    assert.deepEqual(readImageHeader(webpVp8xHeader(1920, 1080)), {
      mediaType: 'image/webp',
      width: 1920,
      height: 1080,
    });
    assert.deepEqual(readImageHeader(webpVp8lHeader(300, 200)), { mediaType: 'image/webp', width: 300, height: 200 });
  });

  it('refuses a text file named .png, a truncated header and a JPEG without a frame', () => {
    assert.equal(readImageHeader(notAPng), undefined);
    assert.equal(readImageHeader(pngBytes(40, 30).subarray(0, 20)), undefined);
    assert.equal(readImageHeader(jpegHeaderBytes(10, 10).subarray(0, 100)), undefined);
  });

  it('scales a 4000×3000 screenshot within 1568 px and ~1.15 megapixels, and never enlarges', () => {
    const s = scaledSize(4000, 3000);
    assert.ok(Math.max(s.width, s.height) <= IMAGE_LIMITS.maxLongEdge);
    assert.ok(s.width * s.height <= IMAGE_LIMITS.maxPixels);
    assert.ok(Math.abs(s.width / s.height - 4 / 3) < 0.01);
    assert.deepEqual(scaledSize(800, 600), { width: 800, height: 600 });
    assert.deepEqual(scaledSize(3000, 100), { width: 1568, height: 52 });
    assert.ok(imageTokens(s.width, s.height) <= 1_600, 'the scaled image costs at most ~1,600 tokens');
    assert.equal(imageTokens(4000, 3000), 16_000);
  });
});

describe('images: store and attachments', () => {
  it('stores each content once by hash and releases it only when no conversation holds it', async () => {
    const storage = memoryImages();
    const store = new ImageStore(storage);
    const png = pngBytes(8, 8);
    const hash = await store.put(png);
    assert.equal(hash, sha256Hex(png));
    await store.put(png);
    assert.equal(storage.writes, 1, 'the same bytes are written once');
    assert.equal(store.base64(hash), png.toString('base64'));
    await store.release([hash], new Set([hash]));
    assert.ok(storage.files.has(hash), 'still used elsewhere: kept');
    await store.release([hash], new Set());
    assert.ok(!storage.files.has(hash));
    assert.equal(store.base64(hash), undefined);
  });

  it('reads stored images back after a reload and drops old orphans, not young ones', async () => {
    const storage = memoryImages();
    const hash = await new ImageStore(storage).put(pngBytes(8, 8));
    const reloaded = new ImageStore(storage);
    assert.equal(reloaded.base64(hash), undefined);
    await reloaded.preload([hash, 'f'.repeat(64), '../../etc/passwd']);
    assert.ok(reloaded.base64(hash));
    const orphan = await new ImageStore(storage).put(pngBytes(9, 9));
    storage.files.get(orphan)!.mtime = 0;
    storage.files.get(hash)!.mtime = 0;
    await new ImageStore(storage).removeOrphans(new Set([hash]), 2 * 24 * 3600_000);
    assert.deepEqual([...storage.files.keys()], [hash]);
    await new ImageStore(storage).removeOrphans(new Set(), 1000);
    assert.deepEqual([...storage.files.keys()], [hash], 'a day-young image may be another window’s pending chip');
  });

  it('checks what the page hands over: format and size from the bytes, the per-question count, 5 MB', async () => {
    const store = new ImageStore(memoryImages());
    const data = pngBytes(1200, 900).toString('base64');
    const made = await imageAttachment('a1', { name: 'shot.png', data, thumbnail: THUMB }, store, 0);
    assert.ok(!('refusal' in made));
    assert.equal(made.kind, 'image');
    assert.deepEqual(
      { ...made.image, hash: undefined },
      {
        mediaType: 'image/png',
        width: 1200,
        height: 900,
        bytes: pngBytes(1200, 900).length,
        hash: undefined,
        thumbnail: THUMB,
      },
    );
    assert.equal(made.tokens, 1440);
    const refusal = async (params: { name: string; data: string }, pending = 0) => {
      const r = await imageAttachment('a2', { ...params, thumbnail: THUMB }, store, pending);
      return 'refusal' in r ? r.refusal : 'attached';
    };
    assert.match(await refusal({ name: 'x.png', data: notAPng.toString('base64') }), /not a PNG, JPEG, WebP or GIF/);
    assert.match(await refusal({ name: 'x.png', data }, 20), /At most 20 images/);
    const huge = Buffer.concat([pngBytes(10, 10), Buffer.alloc(IMAGE_LIMITS.maxBytes)]);
    assert.match(await refusal({ name: 'big.png', data: huge.toString('base64') }), /larger than 5 MB/);
    assert.match(await refusal({ name: 'wide.png', data: pngBytes(9000, 1).toString('base64') }), /8000 pixels/);
  });

  it('keeps an image attachment through the history file, and drops a thumbnail that is not an image data URL', async () => {
    const store = new ImageStore(memoryImages());
    const made = (await imageAttachment(
      'a1',
      { name: 'shot.png', data: pngBytes(20, 10).toString('base64'), thumbnail: THUMB },
      store,
      0,
    )) as ChatAttachment;
    const conversation = {
      id: 'c1',
      title: 't',
      titled: false,
      createdAt: 1,
      updatedAt: 1,
      overrides: {},
      messages: [message('user', 'what is this?', [made])],
    };
    const back = parseConversation(serializeConversation(conversation));
    assert.deepEqual(back?.messages[0].attachments, [made]);
    assert.ok(
      !serializeConversation(conversation).includes(pngBytes(20, 10).toString('base64')),
      'bytes stay out of the JSON',
    );
    const remote = { ...made, image: { ...made.image!, thumbnail: 'https://example.com/x.png' } };
    const bad = parseConversation(
      serializeConversation({ ...conversation, messages: [message('user', 'q', [remote])] }),
    );
    assert.equal(bad?.messages[0].attachments?.[0].image, undefined);
  });
});

describe('images: requests', () => {
  it('sends an image as a Messages image block after a line naming it, then the question', async () => {
    const store = new ImageStore(memoryImages());
    const images = imageBytesOf(store);
    const made = (await imageAttachment(
      'a1',
      { name: 'err.png', data: pngBytes(20, 10).toString('base64'), thumbnail: THUMB },
      store,
      0,
    )) as ChatAttachment;
    // Compile-time: what the chat builds is what the Anthropic SDK's types take.
    const params: Anthropic.MessageParam[] = toMessageParams(
      [message('user', 'What does it say?', [made])],
      images,
    ) as SentMessages;
    assert.deepEqual(params, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Image `err.png` (20×10 px):' },
          {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: pngBytes(20, 10).toString('base64') },
          },
          { type: 'text', text: 'What does it say?' },
        ],
      },
    ]);
    const chat = toChatRequest(
      buildMessagesRequest(
        [message('user', 'What does it say?', [made])],
        { model: 'm', maxTokens: 5, systemPrompt: '' },
        images,
      ),
      false,
    );
    const userMessage: OpenAI.Chat.ChatCompletionUserMessageParam = (
      chat.messages as OpenAI.Chat.ChatCompletionUserMessageParam[]
    )[0];
    assert.deepEqual(userMessage.content, [
      { type: 'text', text: 'Image `err.png` (20×10 px):' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBytes(20, 10).toString('base64')}` } },
      { type: 'text', text: 'What does it say?' },
    ]);
    const gone = toMessageParams([message('user', 'q', [made])], NO_IMAGES);
    assert.deepEqual(gone[0].content, [
      { type: 'text', text: 'Image `err.png` (20×10 px): no longer stored, not sent.' },
      { type: 'text', text: 'q' },
    ]);
  });

  it('merges a question with images into the previous question when an answer failed between them', async () => {
    const store = new ImageStore(memoryImages());
    const images = imageBytesOf(store);
    const made = (await imageAttachment(
      'a1',
      { name: 'a.png', data: pngBytes(2, 2).toString('base64'), thumbnail: THUMB },
      store,
      0,
    )) as ChatAttachment;
    const params = toMessageParams(
      [message('user', 'q1'), { ...message('assistant', ''), status: 'error' }, message('user', 'q2', [made])],
      images,
    );
    assert.equal(params.length, 1);
    const content = params[0].content as Array<{ type: string; text?: string }>;
    assert.deepEqual(
      content.map((b) => b.type),
      ['text', 'text', 'image', 'text'],
    );
    assert.equal(content[0].text, 'q1');
  });
});
