// zh-cn leftovers of issue 35 item 10: Check Connection's network line and headings, the usage table's marks, the
// cut-short balance note, all through a Localizer over the real l10n/bundle.l10n.zh-cn.json.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderReport } from '../../src/diagnostics/report';
import { describeProxyPlan } from '../../src/platform/proxy';
import { balanceNoteAfterRefusal } from '../../src/gateway/balance';
import { english, type Localizer } from '../../src/shared/l10n';

const zhBundle = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8'),
) as Record<string, string>;
const zh: Localizer = { t: (message, ...args) => english.t(zhBundle[message] ?? message, ...args) };

describe('l10n: zh-cn leftovers (issue 35)', () => {
  it('Check Connection: "direct connection (no proxy)" in Chinese, headings with a full-width colon', () => {
    assert.equal(describeProxyPlan({ kind: 'direct' } as never, zh), '直接连接（无代理）');
    assert.equal(
      describeProxyPlan({ kind: 'direct' } as never),
      'direct connection (no proxy)',
      'the log stays English',
    );
    const report = renderReport(
      {
        ok: true,
        startedAt: 'now',
        steps: [{ id: 'baseUrl', title: zh.t('Base URL'), status: 'ok', lines: [] }],
      } as never,
      zh,
    );
    const heading = report.split('\n').find((l) => l.startsWith('## '))!;
    assert.match(heading, /^## 1\. .+：.+$/);
    assert.doesNotMatch(heading, /[\u4e00-\u9fff]: /, 'no ASCII colon after Chinese');
  });

  it('the balance note of a refusal, and the brackets of the usage marks, in Chinese punctuation', () => {
    assert.match(balanceNoteAfterRefusal(undefined, zh), /余额/);
    assert.equal(zh.t('({0})', '估算'), '（估算）');
    assert.equal(zh.t('{0} ({1}%)', zh.t('The gateway is working on it'), 1), '网关正在处理（1%）');
  });
});
