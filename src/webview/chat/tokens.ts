// Token figures in one definition everywhere (the Messages API's): input is the uncached input, cache reads and
// cache writes are counted apart, output is what the model wrote. The footer, the turn and its steps use these
// words and numbers, so the steps add up to the turn and the turn is the footer. An output counted from what streamed
// (a stopped or cut answer) says so.
import type { ChatUsage, TokenCounts } from '../../shared/protocol/chat';
import { t } from '../common/strings';

const format = (n: number): string => n.toLocaleString('en-US');

const output = (n: number, estimated: boolean | undefined): string =>
  estimated ? t('chat.tokensEstimated', format(n)) : format(n);

/** "in 1,234 · out 56 · cache read 1,000 · cache write 200" (an agent turn and its steps: always all four). */
export function tokensText(tokens: TokenCounts): string {
  return t(
    'agent.tokens',
    format(tokens.input),
    output(tokens.output, tokens.estimated),
    format(tokens.cacheRead),
    format(tokens.cacheWrite),
  );
}

/** An answer's footer: "tokens: in 5 · out 2", with the cache figures when there are any. */
export function usageText(usage: ChatUsage): string {
  const figures =
    usage.cacheRead || usage.cacheWrite
      ? tokensText(usage)
      : t('chat.tokensInOut', format(usage.input), output(usage.output, usage.estimated));
  return t('chat.usage', figures);
}
