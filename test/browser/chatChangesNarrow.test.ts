/// <reference lib="dom" />
// The Pending changes list fits any side bar from 220 px (issue 45 item 4): at 300 px the per-part Accept / Reject sat
// at x 405–520, out of sight. Every button of the list lies inside the page, is the element a click there hits, and
// posts its action; long file names are cut with an ellipsis (the full path on hover), never the buttons.
import { strict as assert } from 'node:assert';
import type { PendingChangeView, WebviewToHostMessage } from '../../src/shared/protocol/chat';
import { chatPageSuite, snapshot, type ChatPage } from '../support/chatPage';

const LONG = 'src/components/deeply/nested/folder/with/a/rather/long/name/component.test.tsx';
const hunk = (key: string, line: number, preview: string) => ({ key, line, added: 12, removed: 11, preview });
const CHANGES: PendingChangeView[] = [
  {
    id: 'ch-h',
    kind: 'edit',
    path: LONG,
    added: 124,
    removed: 118,
    hunks: [
      hunk('k1', 1, 'export const aVeryLongIdentifierNameThatNeverEnds = computeSomethingExpensive(argumentOne);'),
      hunk('k2', 1234, 'x'),
    ],
  },
  { id: 'ch-2', kind: 'create', path: 'test/a.test.ts', added: 10, removed: 0 },
];

describe('chat webview: pending changes in a narrow side bar (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite(undefined, (page) => assert.deepEqual(page.errors, []));
  beforeEach(() => {
    chat = pages.chat;
  });

  for (const width of [220, 300, 600])
    it(`at ${width} px every button of the list is inside the view and takes its click`, async () => {
      await chat.page.setViewportSize({ width, height: 900 });
      // The codicons, as the webview loads them: icon buttons get their real size.
      await chat.page.addStyleTag({ url: `${pages.serverUrl}dist/webview/codicon.css` });
      await chat.play({ type: 'snapshot', snapshot: snapshot([], { mode: 'agent', agent: { ok: true } }) });
      await chat.play({ type: 'changes', changes: CHANGES });
      const changes = chat.page.locator('section.changes');
      await changes.waitFor();
      const noScroll = await changes.evaluate((e) => e.scrollWidth <= e.clientWidth);
      if (process.env.MG_SHOT) await changes.screenshot({ path: `/tmp/changes-${width}.png` });
      assert.ok(noScroll, 'no sideways scrolling');
      const buttons = changes.locator('button');
      const count = await buttons.count();
      assert.equal(count, 2 + 3 + 3 + 2 * 2, 'all, file rows, parts');
      for (let i = 0; i < count; i++) {
        const b = buttons.nth(i);
        await b.scrollIntoViewIfNeeded();
        const label = (await b.getAttribute('aria-label')) ?? (await b.innerText());
        const box = (await b.boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= width, `${label}: x ${box.x}–${box.x + box.width} in ${width}`);
        assert.ok(box.width >= 16 && box.height >= 16, `${label}: ${box.width}×${box.height}`);
        const hit = await b.evaluate((node) => {
          const r = node.getBoundingClientRect();
          const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return !!at && node.contains(at);
        });
        assert.ok(hit, `${label}: a click at its centre reaches it`);
        assert.ok(label.trim().length > 0, 'a name for screen readers');
      }
      // The parts' buttons say what they do (title and name) and post their action.
      const reject = changes.locator('button[aria-label="Reject the part at line 1234 of ' + LONG + '"]');
      assert.equal(await reject.getAttribute('title'), 'Reject the part at line 1234 of ' + LONG);
      await reject.click();
      await changes.locator('li.change-hunk').nth(0).locator('button[data-change-action="accept"]').click();
      const posted = (await chat.posted()).filter(
        (m): m is Extract<WebviewToHostMessage, { type: 'changeHunk' }> => m.type === 'changeHunk',
      );
      assert.deepEqual(
        posted.map((m) => [m.changeId, m.hunk, m.action]),
        [
          ['ch-h', 'k2', 'reject'],
          ['ch-h', 'k1', 'accept'],
        ],
      );
      // The long name is cut with an ellipsis, the whole path on hover.
      const path = changes.locator('li[data-change-id="ch-h"] > .change-path');
      const cut = await path.evaluate((e) => ({
        cut: e.scrollWidth > e.clientWidth,
        ellipsis: getComputedStyle(e).textOverflow,
        right: e.getBoundingClientRect().right,
      }));
      if (width < 600) assert.ok(cut.cut, 'the long path is cut');
      assert.equal(cut.ellipsis, 'ellipsis');
      assert.ok(cut.right <= width);
      assert.match((await path.getAttribute('title')) ?? '', /component\.test\.tsx \(edit\)$/);
    });
});
