// The account in the workbench: Check Connection shows the demo key's balance (the emulator answers new-api's
// billing routes), answers show their cost with its source (the emulator's model list publishes prices), and
// Model Gateway: Show Usage draws the answers as a bar chart with a table per model.
import * as assert from 'assert';
import type { Page } from 'playwright-core';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { openFreshChatView, recordChatFailure, type ChatView } from '../support/chatView';
import type { Workbench } from '../support/workbench';
import { waitForValue } from '../support/poll';

const KEY = 'mg-demo-key-0001';

describe('usage: balance, cost per answer and the usage chart (UI)', function () {
  this.timeout(240_000);
  let wb: Workbench;
  let view: ChatView;
  const admin = EmulatorAdmin.fromEnv();

  before(async () => {
    await admin.setFaults(KEY, null);
    ({ wb, view } = await openFreshChatView());
  });
  after(async () => {
    await wb?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await recordChatFailure(wb, this.currentTest.title);
  });

  it('Check Connection reports the balance the gateway states', async () => {
    await wb.runCommand('Model Gateway: Check Connection');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // The report opens rendered, in VS Code's Markdown preview (a webview of VS Code's, not ours).
    await wb.page.locator('.tabs-container .tab[aria-label*="Connection check"]').first().waitFor();
    const text = (await renderedText(wb.page, /Balance[\s\S]*left of/)).replace(/\u00a0/g, ' ');
    assert.match(text, /\d+(\.\d+)? left of \d+/);
    assert.match(text, /GET \/dashboard\/billing\/subscription/);
    await wb.screenshot('usage-balance-check');
    await wb.runCommand('View: Close All Editors');
  });

  it('each answer shows its cost and where it comes from; Show Usage draws them', async () => {
    for (const question of ['What does the usage chart show?', 'And a second question, for the chart.']) {
      await view.send(question);
      await view.finished();
    }
    assert.match(await view.lastAnswer().locator('.meta').innerText(), /≈\d+(\.\d+)? \(gateway price, estimate\)/);
    await wb.runCommand('Model Gateway: Show Usage');
    const page = await wb.webviewByTitle('Model Gateway Usage');
    await page.locator('svg.chart rect').first().waitFor({ timeout: 30_000 });
    // The models' table (completions and sub-agents have tables of their own once the ledger holds them).
    const table = await page.locator('table.models').innerText();
    assert.match(table, /claude-demo-\w+/);
    assert.match(table, /estimate/);
    await wb.screenshot('usage-panel');
  });
});

/** The text of the first nested frame (a webview's page) whose text matches `pattern`, within 30 s. */
function renderedText(page: Page, pattern: RegExp): Promise<string> {
  return waitForValue(
    `a rendered page showing ${pattern}`,
    async () => {
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        const text = await frame
          .locator('body')
          .innerText({ timeout: 1000 })
          .catch(() => '');
        if (pattern.test(text)) return text;
      }
      return undefined;
    },
    30_000,
    500,
  );
}
