// Two windows of one VS Code (issue 42): code-server gives each page its own extension host over one user data
// folder, so two pages on two folders are two windows sharing the chat history, the usage ledger and the daily
// budget read from it. A conversation made in each is listed in both after a reload; an answer in each counts once,
// in both windows' usage (the figures the daily budget decides on).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { chatView, reloadAndReopen, viewTitleAction, type ChatView } from '../support/chatView';
import { workbenchUrl, workspaceDir } from '../support/env';
import { openWorkbench, type Workbench } from '../support/workbench';
import { waitForValue } from '../support/poll';

describe('two windows: one history, one budget (UI)', function () {
  this.timeout(600_000);
  let a: Workbench | undefined;
  let b: Workbench | undefined;
  let viewA: ChatView;
  let viewB: ChatView;
  const stamp = Date.now().toString(36);

  before(async () => {
    // A second folder next to the harness's workspace: its window is a second extension host.
    const second = path.join(path.dirname(workspaceDir()), `second-window-${stamp}`);
    fs.mkdirSync(second, { recursive: true });
    const url = new URL(workbenchUrl());
    url.searchParams.set('folder', second);
    a = await openWorkbench(undefined, { shared: true });
    viewA = chatView(a);
    await viewA.reopen();
    await a.runCommand('Model Gateway: New Chat');
    b = await openWorkbench(url.toString());
    viewB = chatView(b);
    await viewB.reopen();
    await b.runCommand('Model Gateway: New Chat');
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('an answer in each window counts once, in both windows', async () => {
    const before = await usageTotal(a!); // window A has read the ledger before B answers
    await viewB.send(`B talk ${stamp}`);
    await viewB.finished();
    await viewA.send(`A talk ${stamp}`);
    await viewA.finished();
    const inA = await usageTotal(a!, before + 2);
    const inB = await usageTotal(b!, inA);
    assert.equal(inA, before + 2, 'window A counts its answer and the one of window B');
    assert.equal(inB, inA, 'window B counts the same');
  });

  it('a conversation made in each window is listed in both after a reload', async () => {
    for (const [wb, view] of [
      [a!, viewA],
      [b!, viewB],
    ] as const) {
      await reloadAndReopen(wb, view, '.composer .input');
      await viewTitleAction(wb, 'Show Conversations').click();
      const list = view.frame.locator('.conversations');
      await list.waitFor({ state: 'visible', timeout: 30_000 });
      for (const title of [`A talk ${stamp}`, `B talk ${stamp}`])
        await list.locator('.conversation-open', { hasText: title }).first().waitFor({ timeout: 30_000 });
      await wb.page.keyboard.press('Escape');
    }
  });
});

/**
 * The requests Show Usage counts for the active key (its table's total; 0 before any), read until it equals
 * `expected` when one is given (the page follows the ledger), then the editor closed.
 */
async function usageTotal(wb: Workbench, expected?: number): Promise<number> {
  await wb.runCommand('Model Gateway: Show Usage');
  const page = await wb.webviewByTitle('Model Gateway Usage');
  const total = await waitForValue(
    expected === undefined ? 'the usage page' : `the usage page counting ${expected} requests`,
    async () => {
      if (await page.locator('p.empty').count()) return 0;
      const cell = page.locator('table.models tfoot td:nth-child(2)');
      if (!(await cell.count())) return undefined;
      const n = Number((await cell.first().innerText()).replace(/\D/g, ''));
      return expected === undefined || n === expected ? n : undefined;
    },
    expected === undefined ? 30_000 : 20_000,
    500,
  ).catch(async () =>
    Number((await page.locator('table.models tfoot td:nth-child(2)').first().innerText()).replace(/\D/g, '')),
  );
  await wb.runCommand('View: Close All Editors');
  return total;
}
