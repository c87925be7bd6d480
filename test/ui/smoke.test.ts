// UI smoke test against the real workbench: it loads with our extension, the activity-bar entry opens
// the chat view and its webview frame appears. Feature owners add real UI tests (test/ui/<area>*.test.ts).
import * as assert from 'assert';
import { openWorkbench, CONTAINER_TITLE, EXTENSION_ID, type Workbench } from '../support/workbench';

describe('workbench smoke', function () {
  this.timeout(180_000);
  let wb: Workbench;

  before(async () => {
    wb = await openWorkbench(undefined, { shared: true });
  });
  after(async () => {
    await wb?.close();
  });

  it('shows the Model Gateway activity-bar entry', async () => {
    const entry = wb.page.locator(`.activitybar .action-label[aria-label="${CONTAINER_TITLE}"]`);
    assert.strictEqual(await entry.count(), 1);
  });

  it('opens the chat view, whose webview belongs to our extension', async () => {
    await wb.openView(CONTAINER_TITLE);
    const title = await wb.page.locator('.part.sidebar .composite.title').first().innerText();
    assert.match(title, /model gateway/i);
    // Our webview, in the side bar (a view, not an editor). Not by its `purpose=webviewView` query: VS Code drops it
    // when it makes the view's page again (a reload in an earlier suite of the shared window does that).
    const frame = wb.page.locator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`);
    await frame.first().waitFor({ state: 'attached', timeout: 60_000 });
    const inSideBar = await frame.first().evaluate((el) => {
      const box = el.getBoundingClientRect();
      const bar = document.querySelector('.part.sidebar')?.getBoundingClientRect();
      return !!bar && box.width > 0 && box.left >= bar.left - 1 && box.right <= bar.right + 1;
    });
    assert.ok(inSideBar, 'the chat webview is drawn inside the side bar');
    await wb.screenshot('smoke-chat-view');
  });

  it('runs a palette command by title', async () => {
    // The panel as the earlier suites of the shared window left it (open after a terminal, say): the toggle must turn
    // it the other way. Waiting for "visible" whatever it was failed every run once, 30 s, and passed when tried again.
    const panel = wb.page.locator('.part.panel').first();
    const wasVisible = await panel.isVisible();
    await wb.runCommand('View: Toggle Panel Visibility');
    await panel.waitFor({ state: wasVisible ? 'hidden' : 'visible' });
    // Back as it was: the next suite meets the window unchanged.
    await wb.runCommand('View: Toggle Panel Visibility');
    await panel.waitFor({ state: wasVisible ? 'visible' : 'hidden' });
  });
});
