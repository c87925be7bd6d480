// The one shape of token counts (pure), in the Messages API's definitions: `input` is the uncached input, cache reads
// and writes apart. The ledger, the chat, the agent and the condenser count in it; the gateway's usage objects become
// it in one place (tokenCountsOf, src/gateway/pricing.ts).
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The output is estimated from what streamed (stopped or cut before the gateway reported it). */
  estimated?: boolean;
}

export const ZERO_TOKENS: Readonly<TokenCounts> = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    ...(a.estimated || b.estimated ? { estimated: true } : {}),
  };
}

/** Every token counted: input, output and both cache figures. */
export function totalTokens(t: Pick<TokenCounts, 'input' | 'output' | 'cacheRead' | 'cacheWrite'>): number {
  return t.input + t.output + t.cacheRead + t.cacheWrite;
}
