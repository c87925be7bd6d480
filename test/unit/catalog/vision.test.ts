// Which models read images: the model list's own words first (LiteLLM supports_vision, OpenRouter-style
// architecture, capabilities), then modelGateway.models.vision, then the guess from the id; VS Code's chat models
// declare imageInput from it, and VS Code's image attachments reach the request as image blocks.
import { strict as assert } from 'node:assert';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { guessVision, modelVision } from '../../../src/catalog/vision';
import { toChatRequest, type ChatContentPart } from '../../../src/gateway/dialects/chatMapping';
import { toChatInformation } from '../../../src/lm/modelInfo';
import { buildMessagesRequest, imagePartsOfReferences, partFromVsCode } from '../../../src/lm/requestMapping';
import { estimateMessageTokens } from '../../../src/lm/tokens';
import { pngBytes } from '../../support/imageBytes';
import type { ContentBlockParam, ThinkingBlockParam } from '../../../src/gateway/types';
/** The Messages blocks an image request carries: our thinking blocks may lack a signature (chat-completions'
 * reasoning_content), which the Anthropic SDK's type requires; these requests carry none. */
type SentMessages = Array<{
  role: 'user' | 'assistant';
  content: string | Exclude<ContentBlockParam, ThinkingBlockParam>[];
}>;

describe('vision: which models read images', () => {
  it('believes the model list first, then the user setting, then the id', () => {
    assert.deepEqual(modelVision({ id: 'gpt-4o', supports_vision: false }), { vision: false, source: 'list' });
    assert.deepEqual(modelVision({ id: 'x/y', architecture: { input_modalities: ['text', 'image'] } }), {
      vision: true,
      source: 'list',
    });
    assert.deepEqual(modelVision({ id: 'x/y', architecture: { modality: 'text->text' } }), {
      vision: false,
      source: 'list',
    });
    assert.deepEqual(modelVision({ id: 'local', capabilities: ['completion', 'vision'] }), {
      vision: true,
      source: 'list',
    });
    assert.deepEqual(modelVision({ id: 'My-VL' }, { 'my-vl': true }), { vision: true, source: 'setting' });
    assert.deepEqual(modelVision({ id: 'claude-sonnet-4-5' }, { other: false }), { vision: true, source: 'guess' });
  });

  it('guesses from the id: seeing families yes, text-only and small reasoning models no', () => {
    for (const id of [
      'claude-3-5-sonnet-20241022',
      'claude-opus-4-1',
      'anthropic/claude-sonnet-4.5',
      'gpt-4o-mini',
      'gpt-4.1',
      'gpt-5-codex',
      'o3',
      'o4-mini',
      'gemini-2.5-pro',
      'qwen2.5-vl-72b-instruct',
      'qwen-vl-max',
      'glm-4v-plus',
      'glm-4.5v',
      'meta-llama/llama-4-maverick',
      'pixtral-large-latest',
      'claude-demo-sonnet',
    ])
      assert.equal(guessVision(id), true, id);
    for (const id of [
      'deepseek-chat',
      'deepseek-reasoner',
      'gpt-3.5-turbo',
      'o1-mini',
      'o3-mini',
      'claude-2.1',
      'qwen-max',
      'glm-4',
      'kimi-k2',
      'gpt-4o-audio-preview',
    ])
      assert.equal(guessVision(id), false, id);
  });

  it("declares imageInput for VS Code's chat from the same rule", () => {
    const info = (raw: { id: string; [k: string]: unknown }, vision?: Record<string, boolean>) =>
      toChatInformation({ id: raw.id, raw }, { maxOutputTokens: 100, vision }).capabilities.imageInput;
    assert.equal(info({ id: 'claude-sonnet-4' }), true);
    assert.equal(info({ id: 'deepseek-chat' }), false);
    assert.equal(info({ id: 'deepseek-chat' }, { 'deepseek-chat': true }), true);
  });

  it("maps VS Code's image attachments (data parts, @gateway references) to image blocks the SDKs' types accept", async () => {
    const png = new Uint8Array(pngBytes(64, 48));
    const part = partFromVsCode({ mimeType: 'image/png', data: png });
    assert.deepEqual(part, { kind: 'image', mediaType: 'image/png', data: Buffer.from(png).toString('base64') });
    const refs = await imagePartsOfReferences([
      { id: 'file', value: { scheme: 'file' } },
      { id: 'img', value: { mimeType: 'image/png', data: async () => png } },
    ]);
    assert.deepEqual(refs, [part]);
    const body = buildMessagesRequest({
      model: 'claude-sonnet-4',
      maxTokens: 10,
      messages: [{ role: 'user', parts: [part!, { kind: 'text', text: 'what is it?' }] }],
    });
    // Compile-time: our request is what the Anthropic SDK's own types take, and the chat mapping's part OpenAI's.
    const anthropicMessages: Anthropic.MessageParam[] = body.messages as SentMessages;
    const image = (anthropicMessages[0].content as Anthropic.ContentBlockParam[])[0];
    assert.equal(image.type, 'image');
    const chat = toChatRequest(body, false) as { messages: Array<{ content: ChatContentPart[] }> };
    const openaiParts: OpenAI.Chat.ChatCompletionContentPart[] = chat.messages[0].content;
    assert.deepEqual(openaiParts[0], {
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${Buffer.from(png).toString('base64')}` },
    });
    assert.ok(estimateMessageTokens({ role: 'user', parts: [part!] }) >= Math.ceil((64 * 48) / 750));
  });
});
