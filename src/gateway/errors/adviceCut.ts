// Advice for answers the gateway did send (HTTP 200) that could not be used: a stream cut mid-way, and a tool
// call whose input cannot be read. The words go through the Localizer like every advice (advice.ts).
import type { Localizer } from '../../shared/l10n';
import type { GatewayError } from './errors';
import type { Advice, AdviceContext } from './adviceTypes';

// The number is formatted once (grouping like 1,234); the words around it are whole messages per plural form.
const grouped = (n: number): string => n.toLocaleString('en-US');
const outputTokens = (n: number, l10n: Localizer): string =>
  n === 1 ? l10n.t('{0} output token', grouped(n)) : l10n.t('{0} output tokens', grouped(n));
const characters = (n: number, l10n: Localizer): string =>
  n === 1 ? l10n.t('{0} character', grouped(n)) : l10n.t('{0} characters', grouped(n));

/** A 200 stream cut mid-way: the gateway was reached; how far the answer got; billing unknown. */
export function adviseCut(e: GatewayError, c: AdviceContext, l10n: Localizer): Advice {
  const cut = e.cut ?? { characters: 0, how: 'dropped' as const };
  const status = e.status ?? 200;
  const stalledFor = e.message.match(/within (\d+ s)/)?.[1] ?? l10n.t('too long');
  const reached =
    cut.how === 'stalled'
      ? c.baseUrl
        ? l10n.t(
            'The gateway at {0} was reached and answered (HTTP {1}), then the gateway sent nothing for {2} and the stream was closed.',
            c.baseUrl,
            status,
            stalledFor,
          )
        : l10n.t(
            'The gateway was reached and answered (HTTP {0}), then the gateway sent nothing for {1} and the stream was closed.',
            status,
            stalledFor,
          )
      : cut.how === 'ended'
        ? c.baseUrl
          ? l10n.t(
              'The gateway at {0} was reached and answered (HTTP {1}), then the gateway closed the stream before the end of the answer.',
              c.baseUrl,
              status,
            )
          : l10n.t(
              'The gateway was reached and answered (HTTP {0}), then the gateway closed the stream before the end of the answer.',
              status,
            )
        : c.baseUrl
          ? l10n.t(
              'The gateway at {0} was reached and answered (HTTP {1}), then the connection broke during the answer.',
              c.baseUrl,
              status,
            )
          : l10n.t(
              'The gateway was reached and answered (HTTP {0}), then the connection broke during the answer.',
              status,
            );
  const size =
    cut.outputTokens !== undefined
      ? `${outputTokens(cut.outputTokens, l10n)} (${characters(cut.characters, l10n)})`
      : characters(cut.characters, l10n);
  const got =
    cut.characters > 0 || cut.outputTokens !== undefined
      ? l10n.t('The answer was cut after {0}; the partial answer is kept and marked as cut off.', size)
      : l10n.t('No text had arrived yet.');
  return {
    title:
      cut.characters > 0
        ? l10n.t('The answer was cut off after {0}.', size)
        : l10n.t('The answer was cut off before any text arrived.'),
    detail: `${reached} ${got} ${l10n.t('Whether and how much this call is billed is unknown (check your console usage). Retrying is your choice: it sends the request again and may be billed again.')}`,
    actions: ['retry', 'showLog'],
  };
}

/** The stream finished, but a tool call's input is not a JSON object (malformed, or cut by max_tokens). */
export function adviseToolInput(e: GatewayError, _c: AdviceContext, l10n: Localizer): Advice {
  const problems = e.toolInputProblems ?? [];
  const names = [...new Set(problems.map((p) => (p.name ? `"${p.name}"` : l10n.t('a tool'))))].join(', ');
  const maxTokens = e.partial?.stop_reason === 'max_tokens';
  return {
    title: l10n.t("The model's call of {0} could not be read.", names),
    detail: maxTokens
      ? l10n.t(
          'The answer hit the max_tokens limit in the middle of the tool input, so the input is incomplete. Raise the maximum output tokens (modelGateway.chat.maxTokens) and retry.',
        )
      : l10n.t(
          'The tool input the gateway sent is not valid JSON, so the tool was not called with it. Retry; if it persists, the gateway may be mangling tool calls.',
        ),
    actions: ['retry', 'showLog'],
  };
}
