// @gateway as an agent in VS Code's own Chat view, as a user types it (1.104+: a gateway model to pick): a `#` tool
// reference makes the question an agent turn; the scripted emulator model calls the tool, reads its result and
// answers; the response shows the tool call and the token footer. The screenshot is README's docs/images/gateway-agent.png
// (refreshed by hand).
import * as assert from 'assert';
import * as path from 'path';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { compareVersions, resultsDir, vscodeVersion } from '../support/env';
import { CONTAINER_TITLE, clickNativeChatInput, openWorkbench, type Workbench } from '../support/workbench';

const KEY = 'mg-demo-key-0001';

describe('gateway agent (UI)', function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;
  const admin = EmulatorAdmin.fromEnv();

  before(async function () {
    if (compareVersions(vscodeVersion(), '1.104.0') < 0) this.skip(); // no gateway model to pick in the chat view before 1.104
    await admin.setFaults(KEY, null);
    wb = await openWorkbench(undefined, { shared: true });
    // Our extension active and its chat ready: the gateway models are then offered to VS Code's chat.
    await wb.openView(CONTAINER_TITLE);
    await wb.chatWebview().locator('.composer .input').waitFor({ timeout: 60_000 });
    await wb.page.waitForTimeout(3_000);
  });
  after(async () => {
    await wb?.close();
  });

  /** Types a request into VS Code's Chat view (opened when hidden) and sends it; returns its response element. */
  async function ask(lines: string[]) {
    const page = wb!.page;
    await clickNativeChatInput(page);
    for (const [i, line] of lines.entries()) {
      if (i > 0) await page.keyboard.press('Shift+Enter');
      await page.keyboard.insertText(line);
    }
    await page.keyboard.press('Escape'); // close any suggestion widget, so Enter sends
    await page.keyboard.press('Enter');
    return page.locator('.interactive-item-container.interactive-response').last();
  }

  it('@gateway answers a plain question without a "Completed N steps" header (no tools, no steps)', async () => {
    const page = wb!.page;
    const response = await ask([`@gateway Quote: plain-question-${Date.now()}`]);
    await response.locator('.rendered-markdown', { hasText: 'plain-question-' }).first().waitFor({ timeout: 90_000 });
    await page.waitForFunction(
      () => !document.querySelector('.interactive-response.chat-response-loading'),
      undefined,
      {
        timeout: 30_000,
      },
    );
    await page.waitForTimeout(1_000);
    const text = await response.innerText();
    assert.doesNotMatch(text, /Completed \d+ steps?/, text);
  });

  it('@gateway #gatewayModels: the model calls the tool, reads its result, and the footer shows the tokens', async () => {
    const page = wb!.page;
    const before = new Set((await admin.requests()).map((r) => r.id));
    await clickNativeChatInput(page);
    await page.keyboard.insertText('@gateway #gatewayModels which models can I use?');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.insertText('@tool modelGateway_listModels');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.insertText('@after-result-say These are the models of your key.');
    await page.keyboard.press('Escape'); // close any suggestion widget, so Enter sends
    await page.keyboard.press('Enter');
    const response = page.locator('.interactive-item-container.interactive-response').last();
    try {
      await response.locator('.rendered-markdown', { hasText: 'tokens: input' }).first().waitFor({ timeout: 90_000 });
      await page
        .waitForFunction(() => !document.querySelector('.interactive-response.chat-response-loading'), undefined, {
          timeout: 30_000,
        })
        .catch(() => undefined);
    } finally {
      await wb!.screenshot('gateway-agent');
    }
    const text = await response.innerText();
    assert.match(text, /These are the models of your key\./);
    assert.match(text, /Result 1: \S/);
    assert.doesNotMatch(text, /Result 1 \(error\)/);
    assert.match(text, /2 steps · tokens: input [\d,]+, output [\d,]+, cache read [\d,]+, cache write [\d,]+/);
    const sent = (await admin.requests()).filter((r) => !before.has(r.id) && r.path.startsWith('/v1/messages'));
    assert.strictEqual(sent.length, 2, 'the tool step and the answer');
    // For the README: the Chat view alone, with the steps (our progress lines and VS Code's tool call) expanded.
    await response
      .getByText(/Completed \d+ steps?/)
      .first()
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await page.waitForTimeout(500);
    const shot = path.join(resultsDir(), 'screenshots', vscodeVersion(), 'gateway-agent.png');
    await page.locator('.part.auxiliarybar').first().screenshot({ path: shot });
  });
});
