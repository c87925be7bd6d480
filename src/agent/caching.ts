// Prompt caching: cache_control breakpoints on the request, and the memory of gateways that reject the field.
// The prefix order is tools → system → messages, and at most 4 breakpoints are allowed per request.
import { isGatewayError } from '../gateway/errors/errors';
import type { CacheControl, ContentBlockParam, MessageParam, TextBlockParam, ToolDefinition } from '../gateway/types';

export const EPHEMERAL: CacheControl = Object.freeze({ type: 'ephemeral' });
export const MAX_BREAKPOINTS = 4;

/** Position of a conversation breakpoint: the last block of message `message`. */
export interface BlockRef {
  message: number;
  block: number;
}

/** The body of one agent request as sent: the system prompt as blocks, so that it can carry a breakpoint. */
export interface AgentRequestBody {
  model: string;
  max_tokens: number;
  system?: TextBlockParam[];
  tools?: ToolDefinition[];
  messages: MessageParam[];
}

/**
 * Copies `body` with breakpoints on the last tool, the system prompt, the previous step's conversation end
 * (`previous`, so that a hit survives a long step whose blocks exceed the server's lookback) and the
 * conversation's end. With `images` (the last message before the end that carries images, imageAnchor) the block
 * after those images is marked too, so they stay in a prefix read from the cache however the blocks after them
 * change (clearing older results rewrites them, and a miss would write the images again at full price); the
 * system prompt's breakpoint then stands for the tools too (tools come first in the prefix), keeping 4 at most.
 * Returns the body and where its conversation breakpoint is. Never mutates `body`.
 */
export function withBreakpoints(
  body: AgentRequestBody,
  previous: BlockRef | undefined,
  images?: BlockRef,
): { body: AgentRequestBody; end: BlockRef | undefined } {
  const out: AgentRequestBody = { ...body, messages: [...body.messages] };
  const end = lastBlock(out.messages);
  const refs: BlockRef[] = [];
  if (end) refs.push(end);
  if (previous && end && previous.message < end.message && blockExists(out.messages, previous)) refs.push(previous);
  const anchored =
    images !== undefined &&
    end !== undefined &&
    images.message < end.message &&
    !refs.some((r) => r.message === images.message && r.block === images.block) &&
    blockExists(out.messages, images);
  if (anchored) refs.push(images);
  const hasSystem = out.system !== undefined && out.system.length > 0;
  const markTools = out.tools !== undefined && out.tools.length > 0 && !(anchored && hasSystem);
  let used = 0;
  if (markTools && out.tools) {
    out.tools = [...out.tools];
    out.tools[out.tools.length - 1] = { ...out.tools[out.tools.length - 1], cache_control: EPHEMERAL };
    used++;
  }
  if (hasSystem && out.system) {
    out.system = [...out.system];
    out.system[out.system.length - 1] = { ...out.system[out.system.length - 1], cache_control: EPHEMERAL };
    used++;
  }
  for (const ref of refs.slice(0, MAX_BREAKPOINTS - used)) markBlock(out.messages, ref);
  return { body: out, end };
}

/** The last cacheable block of the last message before the final one that holds an image (in a tool result too). */
export function imageAnchor(messages: MessageParam[]): BlockRef | undefined {
  for (let m = messages.length - 2; m >= 0; m--) {
    const content = messages[m].content;
    if (typeof content === 'string' || !content.some(holdsImage)) continue;
    for (let b = content.length - 1; b >= 0; b--) if (CACHEABLE.has(content[b].type)) return { message: m, block: b };
  }
  return undefined;
}

function holdsImage(block: ContentBlockParam): boolean {
  if (block.type === 'image') return true;
  return block.type === 'tool_result' && Array.isArray(block.content) && block.content.some((c) => c.type === 'image');
}

/** Block types that may carry cache_control (thinking blocks may not). */
const CACHEABLE = new Set(['text', 'image', 'document', 'tool_use', 'tool_result']);

function lastBlock(messages: MessageParam[]): BlockRef | undefined {
  for (let m = messages.length - 1; m >= 0; m--) {
    const content = messages[m].content;
    if (typeof content === 'string') {
      if (content !== '') return { message: m, block: 0 };
      continue;
    }
    for (let b = content.length - 1; b >= 0; b--) if (CACHEABLE.has(content[b].type)) return { message: m, block: b };
  }
  return undefined;
}

function blockExists(messages: MessageParam[], ref: BlockRef): boolean {
  const content = messages[ref.message]?.content;
  if (content === undefined) return false;
  return typeof content === 'string' ? ref.block === 0 : ref.block < content.length;
}

function markBlock(messages: MessageParam[], ref: BlockRef): void {
  const message = messages[ref.message];
  const blocks: ContentBlockParam[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
  blocks[ref.block] = { ...blocks[ref.block], cache_control: EPHEMERAL } as ContentBlockParam;
  messages[ref.message] = { ...message, content: blocks };
}

/**
 * True when the gateway refused the request because of cache_control: a validation status (400, or 422 from
 * proxies built on schema validators) whose error names the field. Such a request was not billed.
 */
export function isCacheControlRejection(error: unknown): boolean {
  if (!isGatewayError(error) || (error.status !== 400 && error.status !== 422)) return false;
  return /cache[_\s-]?control/i.test(`${error.serverMessage ?? ''} ${error.serverCode ?? ''} ${error.message}`);
}

/**
 * Which key + model pairs reject caching. The key is identified by an id the front end chooses (a hash or a
 * label, never the key itself). Seed it from storage and persist on `onChange` to remember across sessions.
 */
export class CachingMemory {
  private readonly rejected: Set<string>;

  constructor(
    initial: Iterable<string> = [],
    private readonly onChange?: (entries: string[]) => void,
  ) {
    this.rejected = new Set(initial);
  }

  static entry(keyId: string, model: string): string {
    return `${keyId}\u0000${model}`;
  }

  isRejected(keyId: string, model: string): boolean {
    return this.rejected.has(CachingMemory.entry(keyId, model));
  }

  /** Records a rejection; true when it is new (then the user is told, once). */
  reject(keyId: string, model: string): boolean {
    const entry = CachingMemory.entry(keyId, model);
    if (this.rejected.has(entry)) return false;
    this.rejected.add(entry);
    this.onChange?.([...this.rejected]);
    return true;
  }

  /** The user switched caching back on for this pair. */
  forget(keyId: string, model: string): void {
    if (this.rejected.delete(CachingMemory.entry(keyId, model))) this.onChange?.([...this.rejected]);
  }
}
