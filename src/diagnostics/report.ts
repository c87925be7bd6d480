// The Check Connection report: steps with a status and plain words, rendered as markdown. Pure; the words go
// through the Localizer passed in (vscode.l10n from the command; English by default).
import { english, type Localizer } from '../shared/l10n';

export type StepStatus = 'ok' | 'warn' | 'fail' | 'skipped';

export interface ReportStep {
  /** What the step checks, for code that reacts to a step (its title is translated, so it is not matched by words). */
  id?: 'baseUrl' | 'apiKey' | 'reachability' | 'key' | 'models' | 'balance' | 'imageRoutes';
  title: string;
  status: StepStatus;
  /** Lines shown under the step (URLs, counts, advice). Never a key. */
  lines: string[];
}

export interface ConnectionReport {
  startedAt: string;
  baseUrl: string;
  steps: ReportStep[];
  /** True when no step failed. */
  ok: boolean;
  /** The error of the first failed step, for the notification's actions. */
  firstError?: unknown;
}

function statusWord(status: StepStatus, l10n: Localizer): string {
  const words: Record<StepStatus, string> = {
    ok: l10n.t('OK'),
    warn: l10n.t('WARNING'),
    fail: l10n.t('FAILED'),
    skipped: l10n.t('SKIPPED'),
  };
  return words[status] ?? words.skipped;
}

export function renderReport(report: ConnectionReport, l10n: Localizer = english): string {
  const out = [
    `# ${l10n.t('Model Gateway: connection check')}`,
    '',
    report.ok
      ? l10n.t('Started {0}. Result: **OK**.', report.startedAt)
      : l10n.t('Started {0}. Result: **problems found**.', report.startedAt),
    '',
  ];
  report.steps.forEach((step, i) => {
    // The step and its result, punctuated in the user's language (a full-width colon in Chinese).
    out.push(`## ${i + 1}. ${l10n.t('{0}: {1}', step.title, statusWord(step.status, l10n))}`, '');
    for (const line of step.lines) out.push(`- ${line}`);
    out.push('');
  });
  out.push(
    '---',
    l10n.t(
      'The API key is never shown here. For support, use **Model Gateway: Copy Support Info** (timestamp, route, model, HTTP status, request id only).',
    ),
    '',
  );
  return out.join('\n');
}

/** One line for the log per step. */
export function stepLogLine(step: ReportStep): string {
  return `Check connection: [${step.status}] ${step.title}${step.lines.length ? ': ' + step.lines.join(' | ') : ''}`;
}

/** The summary for the notification. */
export function summarize(report: ConnectionReport, l10n: Localizer = english): string {
  const failed = report.steps.find((step) => step.status === 'fail');
  if (failed)
    return `${l10n.t('Model Gateway: connection check failed at "{0}".', failed.title)} ${failed.lines[failed.lines.length - 1] ?? ''}`.trim();
  const models = report.steps.find((step) => step.id === 'models');
  return `${l10n.t('Model Gateway: connection OK.')} ${models?.lines[0] ?? ''}`.trim();
}
