// The Check Connection report: steps with a status and plain words, rendered as markdown. Pure.

export type StepStatus = 'ok' | 'warn' | 'fail' | 'skipped';

export interface ReportStep {
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

const WORD: Record<StepStatus, string> = { ok: 'OK', warn: 'WARNING', fail: 'FAILED', skipped: 'SKIPPED' };

export function renderReport(report: ConnectionReport): string {
  const out = [`# Model Gateway: connection check`, '', `Started ${report.startedAt}. Result: **${report.ok ? 'OK' : 'problems found'}**.`, ''];
  report.steps.forEach((step, i) => {
    out.push(`## ${i + 1}. ${step.title}: ${WORD[step.status]}`, '');
    for (const line of step.lines) out.push(`- ${line}`);
    out.push('');
  });
  out.push('---', 'The API key is never shown here. For support, use **Model Gateway: Copy Support Info** (timestamp, route, model, HTTP status, request id only).', '');
  return out.join('\n');
}

/** One line for the log per step. */
export function stepLogLine(step: ReportStep): string {
  return `Check connection: [${step.status}] ${step.title}${step.lines.length ? ': ' + step.lines.join(' | ') : ''}`;
}

/** The summary for the notification. */
export function summarize(report: ConnectionReport): string {
  const failed = report.steps.find((step) => step.status === 'fail');
  if (failed) return `Model Gateway: connection check failed at "${failed.title}". ${failed.lines[failed.lines.length - 1] ?? ''}`.trim();
  const models = report.steps.find((step) => step.title.startsWith('Models'));
  return `Model Gateway: connection OK. ${models?.lines[0] ?? ''}`.trim();
}
