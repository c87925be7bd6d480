// A conversation as Markdown (pure): the questions with what was attached, the answers, an agent turn's tool calls
// with their results summarised (first line, capped), each answer's tokens and cost, and the total. What the export
// is for: keeping or sharing a conversation outside VS Code. It leaves the extension, so it goes through the same
// redaction as the stored conversation (`redact`: every known secret's forms), and every text in it is made inert
// (src/shared/inertMarkdown.ts): raw HTML as text, unsafe link schemes removed, code kept as written.
import { formatAmount, type ChatCost } from '../../shared/money';
import { inertMarkdown } from '../../shared/inertMarkdown';
import { english, type Localizer } from '../../shared/l10n';
import type { ChatMessage } from '../../shared/protocol/chat';
import { finalAnswer } from '../agent/agentHistory';

/** Characters of a tool result kept in the export (its first line). */
export const RESULT_SUMMARY_CHARS = 200;

export interface ExportedConversation {
  title: string;
  messages: readonly ChatMessage[];
}

export function conversationMarkdown(
  c: ExportedConversation,
  redact: (text: string) => string,
  l10n: Localizer = english,
): string {
  const out = [`# ${inertMarkdown(oneLine(c.title))}`, ''];
  let total = 0;
  let priced = 0;
  let answers = 0;
  for (const m of c.messages) {
    if (m.role === 'user') {
      out.push(`## ${l10n.t('You')}`, '', inertMarkdown(m.text.trim()), '');
      const attached = (m.attachments ?? []).map((a) => `\`${oneLine(a.path)}\` (${a.kind})`);
      if (attached.length) out.push(`*${l10n.t('Attached: {0}', attached.join(', '))}*`, '');
      continue;
    }
    if (m.status === 'queued') continue;
    answers++;
    out.push(`## ${m.model ? inertMarkdown(oneLine(m.model)) : l10n.t('Assistant')}`, '');
    const tools = m.agent?.tools ?? [];
    if (tools.length) {
      out.push(`${l10n.t('Tool calls:')}`, '');
      for (const t of tools) {
        const result = t.result ? `: ${summary(t.result)}` : t.note ? `: ${summary(t.note)}` : '';
        out.push(inertMarkdown(`- \`${oneLine(t.name)}\` ${oneLine(t.summary)} (${t.status})${result}`));
      }
      out.push('');
    }
    const text = m.agent ? finalAnswer(m) : m.text.trim();
    if (text) out.push(inertMarkdown(text), '');
    const figures = usageLine(m, l10n);
    if (figures) out.push(`*${figures}*`, '');
    if (m.usage?.cost) {
      total += m.usage.cost.amount;
      priced++;
    }
  }
  if (priced > 0) {
    const sum = formatAmount(total);
    out.push(
      '---',
      '',
      priced < answers
        ? l10n.t('Total cost: ≈{0} (answers without a price left out)', sum)
        : l10n.t('Total cost: ≈{0}', sum),
      '',
    );
  }
  return redact(`${out.join('\n').trimEnd()}\n`);
}

function usageLine(m: ChatMessage, l10n: Localizer): string | undefined {
  const u = m.usage;
  if (!u) return undefined;
  if (u.notReported) return l10n.t('tokens not reported by the gateway');
  const n = (v: number): string => v.toLocaleString('en-US');
  const parts = [...(u.input ? [l10n.t('in {0}', n(u.input))] : []), l10n.t('out {0}', n(u.output))];
  if (u.cacheRead) parts.push(l10n.t('cache read {0}', n(u.cacheRead)));
  if (u.cacheWrite) parts.push(l10n.t('cache write {0}', n(u.cacheWrite)));
  const tokens = l10n.t('tokens: {0}', parts.join(' · '));
  return u.cost ? `${tokens} · ${costWords(u.cost, l10n)}` : tokens;
}

function costWords(cost: ChatCost, l10n: Localizer): string {
  const amount = formatAmount(cost.amount);
  return cost.source === 'billed' && !cost.estimate
    ? l10n.t('cost {0} (billed)', amount)
    : l10n.t('cost ≈{0} (estimate)', amount);
}

/** A tool result or note in one line: its first line, capped. */
function summary(text: string): string {
  const first = text.trim().split('\n')[0] ?? '';
  return oneLine(first.length > RESULT_SUMMARY_CHARS ? `${first.slice(0, RESULT_SUMMARY_CHARS)}…` : first);
}

/** Text that must stay on one line (a heading, a list item): newlines and backticks would break the Markdown. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/`/g, "'").trim();
}
