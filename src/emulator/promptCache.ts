// Prompt-cache accounting, as upstream does it: the request is read as one sequence of blocks (tools, then
// system, then messages); `cache_control: {type: "ephemeral"}` on a block marks a breakpoint, and the
// prefix up to a breakpoint is what can be cached. A prefix seen before (same key, same model, same bytes,
// within its lifetime), ending at a breakpoint or at most 20 blocks before one, is read from the cache; the prefix
// up to the last breakpoint is written. Usage then
// splits the input into cache_read_input_tokens, cache_creation_input_tokens and input_tokens (the rest).
// Without any breakpoint nothing is cached and usage is what it always was.
import { createHash, type Hash } from 'node:crypto';
import { countTokens } from './models/text';
import { see } from './imageSize';

export interface PromptCacheConfig {
  /** Prefixes shorter than this are never cached (upstream: 1,024 tokens for most models). */
  minTokens: number;
  /** Lifetime of an entry, renewed by every hit (upstream: 5 minutes for "ephemeral"). */
  ttlMs: number;
}

export const DEFAULT_PROMPT_CACHE: PromptCacheConfig = { minTokens: 1024, ttlMs: 5 * 60_000 };

/** One block of the request in prefix order, with its token count and whether it carries a breakpoint. */
interface Segment {
  tokens: number;
  canonical: string;
  breakpoint: boolean;
}

interface Block {
  type?: unknown;
  text?: unknown;
  content?: unknown;
  name?: unknown;
  input?: unknown;
  thinking?: unknown;
  cache_control?: unknown;
}

const isBreakpoint = (b: unknown): boolean =>
  (b as Block | null)?.cache_control !== undefined &&
  ((b as Block).cache_control as { type?: unknown } | null)?.type === 'ephemeral';

/** The block without its cache_control: moving a breakpoint must not change what the prefix is. */
function canonical(kind: string, b: unknown): string {
  if (b && typeof b === 'object' && !Array.isArray(b)) {
    const { cache_control: _ignored, ...rest } = b as Record<string, unknown>;
    return `${kind}\u0000${JSON.stringify(rest)}`;
  }
  return `${kind}\u0000${JSON.stringify(b)}`;
}

/** String content is one text block upstream: a client that marks it (and so sends blocks) keeps its prefix. */
const textBlock = (text: string): Record<string, unknown> => ({ type: 'text', text });

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Block[])
    .map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** Long edge and pixel count upstream scales an image down to before it is read (Anthropic's vision guide). */
const VISION_MAX_EDGE = 1568;
const VISION_MAX_PIXELS = 1_150_000;

/**
 * Tokens of a base64 image block as Anthropic documents them: width × height / 750, after the image is scaled down
 * (aspect kept) to a long edge of at most 1568 px and about 1.15 megapixels (so at most ~1,600 tokens). An image
 * whose size cannot be read counts 0, as before.
 */
export function imageBlockTokens(block: unknown): number {
  const source = (block as { source?: { type?: unknown; data?: unknown } } | null)?.source;
  if (source?.type !== 'base64' || typeof source.data !== 'string') return 0;
  const { width, height } = see(Buffer.from(source.data, 'base64'));
  if (width <= 0 || height <= 0) return 0;
  const scale = Math.min(1, VISION_MAX_EDGE / Math.max(width, height), Math.sqrt(VISION_MAX_PIXELS / (width * height)));
  return Math.ceil((Math.round(width * scale) * Math.round(height * scale)) / 750);
}

/** A tool_result's images (content as blocks) count like images in a message. */
function resultImageTokens(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  return (content as Block[]).reduce((n, b) => n + (b?.type === 'image' ? imageBlockTokens(b) : 0), 0);
}

/** Tokens of one content block, counted like the rest of the emulator (text as text, tool inputs as JSON). */
function blockTokens(b: unknown): number {
  if (typeof b === 'string') return countTokens(b);
  const block = b as Block | null;
  switch (block?.type) {
    case 'text':
      return typeof block.text === 'string' ? countTokens(block.text) : 0;
    case 'tool_result':
      return countTokens(resultText(block.content)) + resultImageTokens(block.content);
    case 'tool_use':
      return countTokens(`${String(block.name ?? '')} ${JSON.stringify(block.input ?? {})}`);
    case 'thinking':
      return typeof block.thinking === 'string' ? countTokens(block.thinking) : 0;
    case 'image':
      return imageBlockTokens(block);
    default:
      return 0; // documents: not counted anywhere in the emulator
  }
}

/** The request as prefix-ordered segments. Each message adds 3 tokens of framing (as the emulator always counted). */
function segments(body: Record<string, unknown>): Segment[] {
  const out: Segment[] = [];
  const tools = Array.isArray(body.tools) ? (body.tools as unknown[]) : [];
  for (const t of tools) {
    const c = canonical('tool', t);
    // A tool definition costs what its JSON (name, description, schema) costs.
    out.push({ tokens: countTokens(c.slice(c.indexOf('\u0000') + 1)), canonical: c, breakpoint: isBreakpoint(t) });
  }
  const system = body.system;
  if (typeof system === 'string') {
    if (system)
      out.push({ tokens: countTokens(system), canonical: canonical('system', textBlock(system)), breakpoint: false });
  } else if (Array.isArray(system)) {
    for (const b of system)
      out.push({ tokens: blockTokens(b), canonical: canonical('system', b), breakpoint: isBreakpoint(b) });
  }
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: unknown; content?: unknown }>) : [];
  for (const m of messages) {
    const kind = `message:${String(m?.role)}`;
    const blocks =
      typeof m?.content === 'string' ? [m.content] : Array.isArray(m?.content) ? (m.content as unknown[]) : [];
    blocks.forEach((b, i) =>
      out.push({
        tokens: blockTokens(b) + (i === 0 ? 3 : 0),
        canonical: canonical(kind, typeof b === 'string' ? textBlock(b) : b),
        breakpoint: isBreakpoint(b),
      }),
    );
    if (blocks.length === 0) out.push({ tokens: 3, canonical: canonical(kind, ''), breakpoint: false });
  }
  return out;
}

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** Input tokens of a request: tool definitions, system and every message block (at least 1). */
export function inputTokens(body: Record<string, unknown>): number {
  return Math.max(
    1,
    segments(body).reduce((n, s) => n + s.tokens, 0),
  );
}

/** Blocks with cache_control one request may carry (upstream refuses more with a 400). */
export const MAX_BREAKPOINTS = 4;

/** How many blocks of the request carry a cache_control breakpoint. */
export function breakpointCount(body: Record<string, unknown>): number {
  return segments(body).filter((s) => s.breakpoint).length;
}

const MAX_ENTRIES = 50_000;
/**
 * Block boundaries checked before each breakpoint for a cached prefix (Anthropic's prompt-caching guide: "the system
 * automatically checks for cache hits at all previous content block boundaries (up to approximately 20 blocks
 * before your explicit breakpoint)").
 */
const LOOKBACK_BLOCKS = 20;

/** The emulator's prompt cache: entries per (key, model, prefix hash), each with an expiry renewed on hits. */
export class PromptCache {
  private readonly entries = new Map<string, number>();

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Splits the request's input tokens by the cache and records what it writes. Returns undefined when the
   * request has no breakpoint (nothing is cached; the caller keeps its usual count).
   * `owner` identifies the key (the key itself never leaves this map).
   */
  account(
    owner: string,
    model: string,
    body: Record<string, unknown>,
    config: PromptCacheConfig,
    now = Date.now(),
  ): CacheUsage | undefined {
    const segs = segments(body);
    if (!segs.some((s) => s.breakpoint)) return undefined;
    this.sweep(now);
    const total = Math.max(
      1,
      segs.reduce((n, s) => n + s.tokens, 0),
    );
    // One running hash over the prefix: the entry of a block boundary is the hash of everything up to it.
    const hash: Hash = createHash('sha256').update(`${owner}\u0000${model}\u0000`);
    const bounds: Array<{ id: string; tokens: number; breakpoint: boolean }> = [];
    let tokens = 0;
    for (const s of segs) {
      hash.update(s.canonical).update('\u0001');
      tokens += s.tokens;
      bounds.push({ id: hash.copy().digest('hex'), tokens, breakpoint: s.breakpoint });
    }
    const points = bounds.filter((b) => b.breakpoint);
    // The longest prefix already cached is read: upstream checks each breakpoint and the block boundaries up to
    // LOOKBACK_BLOCKS before it (an entry written at an earlier request's breakpoint is found from a later one).
    let read = 0;
    let hit: string | undefined;
    bounds.forEach((b, i) => {
      if (!b.breakpoint) return;
      for (let j = i; j >= Math.max(0, i - LOOKBACK_BLOCKS); j--) {
        const expires = this.entries.get(bounds[j].id);
        if (expires === undefined || expires <= now) continue;
        if (bounds[j].tokens > read) [read, hit] = [bounds[j].tokens, bounds[j].id];
        break;
      }
    });
    if (hit) this.entries.set(hit, now + config.ttlMs);
    // Every longer breakpoint prefix of cacheable size is written; what is billed as written is the part
    // beyond what was read, up to the last breakpoint.
    let written = read;
    for (const p of points) {
      if (p.tokens <= read || p.tokens < config.minTokens) continue;
      this.entries.set(p.id, now + config.ttlMs);
      written = Math.max(written, p.tokens);
    }
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    return {
      input_tokens: total - written,
      cache_creation_input_tokens: written - read,
      cache_read_input_tokens: read,
    };
  }

  private sweep(now: number): void {
    for (const [id, expires] of this.entries) if (expires <= now) this.entries.delete(id);
  }
}
