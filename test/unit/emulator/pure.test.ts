// Pure modules of the emulator: PNG encoder, multipart parser, token splitting, reply planning, config loading.

import { strict as assert } from 'node:assert';
import { inflateSync } from 'node:zlib';
import { defaultConfig, parseConfigText } from '../../../src/emulator';
import { boundaryOf, parseMultipart } from '../../../src/emulator/multipart';
import { encodePng, looksLikeImage, pngSize, renderPromptImage } from '../../../src/emulator/png';
import { planReply } from '../../../src/emulator/reply';
import { parseDirectives, replyOfLength, splitJson, tokenize } from '../../../src/emulator/models/text';

/** Walks the PNG chunks, checking each CRC with zlib's crc32-free way: re-encoding is not needed, only structure. */
function chunks(png: Buffer): Array<{ type: string; data: Buffer }> {
  const out: Array<{ type: string; data: Buffer }> = [];
  for (let pos = 8; pos < png.length;) {
    const len = png.readUInt32BE(pos);
    out.push({ type: png.toString('ascii', pos + 4, pos + 8), data: png.subarray(pos + 8, pos + 8 + len) });
    pos += 12 + len;
  }
  return out;
}

describe('emulator: pure modules', () => {
  it('encodePng: IHDR holds the size, IDAT inflates to filtered scanlines of the given pixels', () => {
    const rgb = Buffer.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]);
    const png = encodePng(2, 2, rgb);
    assert.deepEqual(pngSize(png), { width: 2, height: 2 });
    const parts = chunks(png);
    assert.deepEqual(
      parts.map((c) => c.type),
      ['IHDR', 'IDAT', 'IEND'],
    );
    assert.deepEqual([...parts[0].data.subarray(8, 13)], [8, 2, 0, 0, 0]);
    assert.deepEqual([...inflateSync(parts[1].data)], [0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 10, 20, 30]);
  });

  it('renderPromptImage: requested size, deterministic per prompt, different for other prompts', () => {
    const a = renderPromptImage('cat', 300, 17);
    assert.deepEqual(pngSize(a), { width: 300, height: 17 });
    assert.ok(a.equals(renderPromptImage('cat', 300, 17)));
    assert.ok(!a.equals(renderPromptImage('dog', 300, 17)));
    assert.ok(!a.equals(renderPromptImage('cat', 300, 17, 1)), 'each of n images differs');
  });

  it('looksLikeImage: PNG, JPEG, GIF, WebP yes; text no', () => {
    assert.ok(looksLikeImage(renderPromptImage('x', 16, 16)));
    assert.ok(looksLikeImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0])));
    assert.ok(looksLikeImage(Buffer.from('GIF89a------')));
    assert.ok(looksLikeImage(Buffer.from('RIFF0000WEBPVP8 ')));
    assert.ok(!looksLikeImage(Buffer.from('hello, world!')));
  });

  it('multipart: fields and files, binary-safe; boundary from the content type', () => {
    const boundary = boundaryOf('multipart/form-data; boundary="----x42"');
    assert.equal(boundary, '----x42');
    const bin = Buffer.from([0, 13, 10, 45, 45, 255]);
    const body = Buffer.concat([
      Buffer.from('------x42\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nhi 👋\r\n'),
      Buffer.from(
        '------x42\r\nContent-Disposition: form-data; name="image[]"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n',
      ),
      bin,
      Buffer.from('\r\n------x42--\r\n'),
    ]);
    const parts = parseMultipart(body, boundary!);
    assert.equal(parts.length, 2);
    assert.equal(parts[0].data.toString(), 'hi 👋');
    assert.equal(parts[1].name, 'image[]');
    assert.equal(parts[1].filename, 'a.png');
    assert.equal(parts[1].contentType, 'image/png');
    assert.ok(parts[1].data.equals(bin));
    assert.throws(() => parseMultipart(Buffer.from('garbage'), 'x'));
  });

  it('tokenize is lossless and never splits a surrogate pair; splitJson too', () => {
    const text = 'Hello 世界你好呀朋友 🚀🚀🚀🚀🚀 👩‍💻\n\n  end';
    const tokens = tokenize(text);
    assert.equal(tokens.join(''), text);
    assert.ok(tokens.every((t) => !/[\uD800-\uDBFF]$/.test(t)));
    const json = JSON.stringify({ a: '🚀🚀🚀🚀🚀🚀🚀' });
    const pieces = splitJson(json, 3);
    assert.equal(pieces.join(''), json);
    assert.ok(pieces.every((p) => !/[\uD800-\uDBFF]$/.test(p)));
  });

  it('directives and exact reply lengths', () => {
    assert.deepEqual(parseDirectives('a [[tokens=12]] [[thinking]]'), { tokens: 12, thinking: true, tool: false });
    assert.equal(tokenize(replyOfLength('short', 500)).length, 500);
    assert.equal(tokenize(replyOfLength('a b c d e f', 3)).length, 3);
  });

  it('planReply: a tool call that does not fit max_tokens is dropped, not cut', () => {
    const body = {
      max_tokens: 7,
      messages: [{ role: 'user', content: 'x [[tool]]' }],
      tools: [{ name: 't', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
    };
    const plan = planReply(body, 'm');
    assert.equal(plan.stopReason, 'max_tokens');
    assert.ok(plan.blocks.every((b) => b.type !== 'tool_use'));
  });

  it('planReply: tool_choice any forces a tool call, none forbids it; image blocks are acknowledged', () => {
    const tools = [{ name: 'lookup', input_schema: { type: 'object', properties: { n: { type: 'number' } } } }];
    const base = { max_tokens: 500, tools, messages: [{ role: 'user', content: 'plain' }] };
    assert.equal(planReply({ ...base, tool_choice: { type: 'any' } }, 'm').stopReason, 'tool_use');
    assert.equal(planReply({ ...base, tool_choice: { type: 'tool', name: 'lookup' } }, 'm').stopReason, 'tool_use');
    assert.equal(
      planReply({ ...base, messages: [{ role: 'user', content: 'x [[tool]]' }], tool_choice: { type: 'none' } }, 'm')
        .stopReason,
      'end_turn',
    );
    const withImage = planReply(
      {
        max_tokens: 500,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
              { type: 'text', text: 'see' },
            ],
          },
        ],
      },
      'm',
    );
    assert.ok(withImage.blocks[0].pieces.join('').includes('You wrote:\n\nsee\n\nI received 1 image.'));
  });

  it('parseConfigText: fills missing sections from the defaults and rejects broken references', () => {
    const cfg = parseConfigText(JSON.stringify({ tasks: { durationMs: 10 } }));
    assert.equal(cfg.tasks.durationMs, 10);
    assert.equal(cfg.tasks.retryAfterSec, 3);
    assert.deepEqual(cfg.keys, defaultConfig().keys);
    assert.throws(() => parseConfigText('[]'), /JSON object/);
    assert.throws(
      () => parseConfigText(JSON.stringify({ keys: [{ key: 'k', name: 'n', group: 'ghost', balance: 1 }] })),
      /unknown group/,
    );
  });

  it('emulator.json at the repo root is the default config', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const file = readFileSync(join(__dirname, '../../../emulator.json'), 'utf8');
    assert.deepEqual(JSON.parse(file), JSON.parse(JSON.stringify(defaultConfig())));
  });
});
