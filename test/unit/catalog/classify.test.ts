import { strict as assert } from 'node:assert';
import { classifyModel, splitByKind } from '../../../src/catalog/classify';
import {
  cacheKey,
  isFresh,
  readTable,
  sameIds,
  toSnapshot,
  withEntry,
  type CacheEntry,
} from '../../../src/catalog/cache';

describe('platform: model classification', () => {
  const images = [
    'gpt-image-demo',
    'flux-demo-schnell',
    'dall-e-3',
    'imagen-4.0',
    'midjourney-v7',
    'stable-diffusion-xl',
    'sd-3.5-large',
    'vendor/sd-xl',
    'doubao-seedream-4',
    'kolors-v2',
    'gemini-2.5-flash-image',
    'FLUX.1-dev',
  ];
  const chats = [
    'claude-demo-sonnet',
    'claude-demo-haiku',
    'claude-alt-opus',
    'gpt-4o',
    'usd-pricing-bot',
    'deepseek-chat',
  ];

  for (const id of images) it(`classifies ${id} as image`, () => assert.equal(classifyModel(id), 'image'));
  for (const id of chats) it(`classifies ${id} as chat`, () => assert.equal(classifyModel(id), 'chat'));

  it('lets overrides win, matching ids case-insensitively', () => {
    assert.equal(classifyModel('my-painter', { 'my-painter': 'image' }), 'image');
    assert.equal(classifyModel('FLUX-chat-tuned', { 'flux-chat-tuned': 'chat' }), 'chat');
    assert.equal(classifyModel('gpt-4o', { other: 'image' }), 'chat');
  });

  it('splits a list by kind, keeping order', () => {
    const split = splitByKind([{ id: 'a-chat' }, { id: 'gpt-image-1' }, { id: 'b-chat' }, { id: 'flux' }]);
    assert.deepEqual(
      split.chat.map((m) => m.id),
      ['a-chat', 'b-chat'],
    );
    assert.deepEqual(
      split.image.map((m) => m.id),
      ['gpt-image-1', 'flux'],
    );
  });
});

describe('platform: model cache table', () => {
  const entry = (
    fingerprint: string,
    fetchedAt: number,
    ids: string[] = ['claude-demo-sonnet', 'gpt-image-demo'],
  ): CacheEntry => ({
    keyFingerprint: fingerprint,
    baseUrl: 'http://127.0.0.1:1',
    fetchedAt,
    models: ids.map((id) => ({ id, object: 'model' })),
  });

  it('keys entries per fingerprint and base URL', () => {
    assert.notEqual(cacheKey('aaaa1111', 'https://a'), cacheKey('bbbb2222', 'https://a'));
    assert.notEqual(cacheKey('aaaa1111', 'https://a'), cacheKey('aaaa1111', 'https://b'));
  });

  it('is fresh only within its lifetime, and never with lifetime 0', () => {
    assert.equal(isFresh({ fetchedAt: 1000 }, 60_000, 30_000), true);
    assert.equal(isFresh({ fetchedAt: 1000 }, 60_000, 61_000), false);
    assert.equal(isFresh({ fetchedAt: 1000 }, 0, 1000), false);
    assert.equal(isFresh({ fetchedAt: 5000 }, 60_000, 1000), false, 'a clock that went back is not fresh');
  });

  it('classifies at read time with the current overrides and keeps unknown fields', () => {
    const snapshot = toSnapshot(entry('f', 1), { 'claude-demo-sonnet': 'image' });
    assert.deepEqual(
      snapshot.models.map((m) => [m.id, m.kind]),
      [
        ['claude-demo-sonnet', 'image'],
        ['gpt-image-demo', 'image'],
      ],
    );
    assert.equal(snapshot.models[0].raw.object, 'model');
  });

  it('drops the oldest entries beyond the maximum', () => {
    let table = {};
    for (let i = 0; i < 5; i++) table = withEntry(table, entry(`k${i}`, i), 3);
    assert.deepEqual(
      Object.values(table)
        .map((e) => (e as CacheEntry).keyFingerprint)
        .sort(),
      ['k2', 'k3', 'k4'],
    );
  });

  it('reads damaged state as empty and filters bad models', () => {
    assert.deepEqual(readTable(undefined), {});
    assert.deepEqual(readTable('x'), {});
    const table = readTable({
      a: { keyFingerprint: 'f', baseUrl: 'u', fetchedAt: 1, models: [{ id: 'ok' }, { name: 'no id' }, null] },
      b: { nope: 1 },
    });
    assert.deepEqual(Object.keys(table), ['a']);
    assert.deepEqual(table.a.models, [{ id: 'ok' }]);
  });

  it('compares id lists', () => {
    assert.equal(sameIds([{ id: 'a' }], [{ id: 'a' }]), true);
    assert.equal(sameIds([{ id: 'a' }], [{ id: 'b' }]), false);
  });
});
