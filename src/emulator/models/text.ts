// Deterministic reply text: computed from the prompt only, so tests can predict and inject content.

/** One block of a planned reply, before max_tokens is applied. */
export type PlannedBlock =
  | { type: 'thinking'; text: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface Directives {
  tokens?: number;
  thinking: boolean;
  tool: boolean;
}

/** The multi-byte line every reply carries (accents, CJK, emoji incl. a ZWJ sequence, RTL). */
export const MULTIBYTE_LINE = 'Multi-byte check: héllo wörld · 你好，世界 · こんにちは · 🚀✨👩‍💻 · Привет · مرحبا';

/** Splits text into "tokens": whitespace + up to 4 code points. Concatenating them gives the text back. */
export function tokenize(text: string): string[] {
  return text.match(/\s*[^\s]{1,4}|\s+/gu) ?? [];
}

export function countTokens(text: string): number {
  return tokenize(text).length;
}

export function parseDirectives(text: string): Directives {
  const tokens = /\[\[tokens=(\d{1,7})\]\]/.exec(text);
  return {
    tokens: tokens ? Number(tokens[1]) : undefined,
    thinking: text.includes('[[thinking]]'),
    tool: text.includes('[[tool]]'),
  };
}

/** The standard reply: quotes the user message verbatim, then markdown, a fenced code block and multi-byte text. */
export function standardReply(userText: string, model: string, images: readonly string[] = []): string {
  return [
    'You wrote:',
    '',
    userText,
    '',
    ...(images.length > 0
      ? [`I received ${images.length} image${images.length === 1 ? '' : 's'}.`, ...images, '']
      : []),
    `This is a **deterministic** reply from the *Model Gateway emulator* (model \`${model}\`).`,
    '',
    '- It quotes your last message verbatim.',
    '- It is the same for the same prompt.',
    '',
    '```ts',
    'function greet(name: string): string {',
    '  return `Hello, ${name}!`;',
    '}',
    '```',
    '',
    MULTIBYTE_LINE,
  ].join('\n');
}

/** A reply of exactly `count` tokens: the standard reply, cut or extended with numbered filler sentences. */
export function replyOfLength(base: string, count: number): string {
  const pieces = tokenize(base);
  let sentence = 1;
  while (pieces.length < count) {
    pieces.push(...tokenize(`${pieces.length ? ' ' : ''}Filler sentence ${sentence} of the emulated reply.`));
    sentence++;
  }
  return pieces.slice(0, count).join('');
}

export function thinkingText(userText: string): string {
  const head = userText
    .replace(/\[\[[^\]]*\]\]/g, '')
    .trim()
    .slice(0, 60);
  return `Let me think about "${head}". The emulator thinks deterministically, step by step: first read, then answer.`;
}

/** Tool input made from the tool's JSON schema: one plausible value per declared property. */
export function toolInput(schema: unknown, userText: string): Record<string, unknown> {
  const props = (schema as { properties?: Record<string, { type?: string }> } | undefined)?.properties ?? {};
  const input: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(props)) {
    if (prop?.type === 'number' || prop?.type === 'integer') input[name] = 42;
    else if (prop?.type === 'boolean') input[name] = true;
    else if (prop?.type === 'array') input[name] = ['emulated'];
    else if (prop?.type === 'object') input[name] = {};
    else
      input[name] =
        userText
          .replace(/\[\[[^\]]*\]\]/g, '')
          .trim()
          .slice(0, 40) || 'emulated';
  }
  return input;
}

/** Splits a JSON text into pieces for input_json_delta events (several deltas even for small inputs). */
export function splitJson(json: string, pieceLength = 6): string[] {
  const points = Array.from(json); // by code point: never split a surrogate pair
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += pieceLength) pieces.push(points.slice(i, i + pieceLength).join(''));
  return pieces.length ? pieces : [''];
}
