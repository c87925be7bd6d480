// Links in model output, in the real VS Code workbench: the emulator quotes the prompt verbatim, so a prompt
// full of links makes the "model" answer with every kind of link. Each is clicked; what opened is counted by a
// 127.0.0.1 server the links point at, by the browser windows the workbench opened, and by the editors and
// dialogs that appeared. Each link kind has its own target port: code-server forwards a 127.0.0.1 link through
// its /proxy/<port>/ route and VS Code 1.100 drops the path on the way, so only the port reliably tells them apart.
// A plain link opens exactly once after the confirmation and not at all when it is cancelled; every other kind opens
// nothing.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Page } from 'playwright-core';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { compareVersions, resultsDir, vscodeVersion, workspaceDir } from '../support/env';
import { CONTAINER_TITLE, openWorkbench, type Workbench } from '../support/workbench';
import { startHttpServer, type LocalServer } from '../support/httpServer';

const KEY = 'mg-demo-key-0001';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SECRET_FILE = 'links-secret.txt';

interface Hit {
  label: string;
  path: string;
  host: string;
}

/** Labels of the links that point at a target server (command:, file: and data: ones point at nothing). */
const TARGETS = [
  'L-plain-cancel',
  'L-cred-userinfo',
  'L-cred-github',
  'L-lookalike',
  'L-bidi',
  'L-zero-width',
  'L-javascript',
  'L-vscode',
  'L-plain-ok',
];

describe('chat links (UI)', function () {
  this.timeout(300_000);
  let wb: Workbench;
  let chat: FrameLocator;
  const servers: LocalServer[] = [];
  const ports: Record<string, number> = {};
  const hits: Hit[] = [];
  const popups: Page[] = [];
  const admin = EmulatorAdmin.fromEnv();
  const onPopup = (popup: Page): void => void popups.push(popup);

  before(async () => {
    await admin.setFaults(KEY, null);
    fs.writeFileSync(path.join(workspaceDir(), SECRET_FILE), 'not for the model\n');
    for (const label of TARGETS) {
      const server = await startHttpServer((req, res) => {
        if (!/favicon/.test(req.url ?? ''))
          hits.push({ label, path: decodeURIComponent(req.url ?? ''), host: req.headers.host ?? '' });
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>link target</title>opened');
      });
      servers.push(server);
      ports[label] = server.port;
    }
    wb = await openWorkbench(undefined, { shared: true });
    wb.page.context().on('page', onPopup);
    await wb.openView(CONTAINER_TITLE);
    chat = wb.chatWebview();
    await chat.locator('.composer .input').waitFor({ timeout: 60_000 });
  });
  after(async () => {
    wb?.page.context().off('page', onPopup);
    await wb?.close();
    await Promise.all(servers.map((server) => server.close()));
    fs.rmSync(path.join(workspaceDir(), SECRET_FILE), { force: true });
  });

  const at = (label: string) => `127.0.0.1:${ports[label]}`;
  /** Every kind of link a prompt-injected model could write; the label is the link text. */
  const links = (): Array<{ label: string; href: string; opens: boolean }> => [
    { label: 'L-plain-cancel', href: `http://${at('L-plain-cancel')}/plain-cancel`, opens: false },
    { label: 'L-cred-userinfo', href: `http://user:pw@${at('L-cred-userinfo')}/cred-userinfo`, opens: false },
    { label: 'L-cred-github', href: `http://github.com:x@${at('L-cred-github')}/cred-github`, opens: false },
    { label: 'L-lookalike', href: `http://\u0430pple.localhost:${ports['L-lookalike']}/lookalike`, opens: false },
    { label: 'L-bidi', href: `http://${at('L-bidi')}/bidi-\u202Etxt.exe`, opens: false },
    { label: 'L-zero-width', href: `http://${at('L-zero-width')}/zero\u200Bwidth`, opens: false },
    { label: 'L-command', href: 'command:workbench.action.files.newUntitledFile', opens: false },
    { label: 'L-file', href: `file://${path.join(workspaceDir(), SECRET_FILE)}`, opens: false },
    { label: 'L-data', href: 'data:text/html;base64,PGgxPmRhdGE8L2gxPg==', opens: false },
    { label: 'L-javascript', href: `javascript:location='http://${at('L-javascript')}/javascript'`, opens: false },
    { label: 'L-vscode', href: `vscode://vscode.git/clone?url=http://${at('L-vscode')}/vscode`, opens: false },
    { label: 'L-plain-ok', href: `http://${at('L-plain-ok')}/plain-ok`, opens: true },
  ];

  const lastAnswer = () => chat.locator('.message.assistant').last();
  const dialog = () => wb.page.locator('.monaco-dialog-box');
  const editorTabs = () => wb.page.locator('.tabs-container .tab').allInnerTexts();
  const hitsFor = (label: string) => hits.filter((h) => h.label === label);
  const notice = () => chat.locator('.composer .notice');
  /** Every link but the two plain ones is refused by the link policy. */
  const refused = (link: { label: string }) => link.label !== 'L-plain-ok' && link.label !== 'L-plain-cancel';

  /** Closes any dialog the click caused (recording its text); clicks `button` when given and shown. */
  async function settleDialog(button?: string): Promise<string | undefined> {
    if (
      !(await dialog()
        .waitFor({ timeout: button ? 15_000 : 2_000 })
        .then(
          () => true,
          () => false,
        ))
    )
      return undefined;
    const text = await dialog().innerText();
    const wanted = button ? dialog().locator('.monaco-button', { hasText: new RegExp(`^${button}$`) }) : undefined;
    if (wanted && (await wanted.count())) await wanted.first().click();
    else
      await dialog()
        .locator('.monaco-button', { hasText: /^Cancel$/ })
        .first()
        .click()
        .catch(() => wb.page.keyboard.press('Escape'));
    await dialog()
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined);
    return text;
  }

  it('every kind of link in model output: only a confirmed plain link opens, exactly once', async () => {
    const tabsBefore = await editorTabs();
    // The model list loads after activation; a question sent before it would have no model to go to.
    for (
      const deadline = Date.now() + 60_000;
      !(await chat.locator('.composer .model').inputValue()) && Date.now() < deadline;
    )
      await sleep(250);
    // The demo key's model, whatever an earlier suite of the shared window left in the composer.
    const model = chat.locator('.composer input.model');
    if ((await model.inputValue()) !== 'claude-demo-sonnet') {
      await model.fill('claude-demo-sonnet');
      await model.press('Enter');
      await model.press('Escape').catch(() => undefined);
    }
    const prompt = `Links test:\n\n${links()
      .map((l) => `- [${l.label}](${l.href})`)
      .join('\n')}`;
    const answers = await chat.locator('.message.assistant').count();
    const input = chat.locator('.composer .input');
    await input.click();
    await input.fill(prompt);
    await input.press('Enter');
    await chat.locator('.message.assistant').nth(answers).waitFor({ state: 'attached', timeout: 30_000 });
    await lastAnswer()
      .and(chat.locator('[data-status="complete"], [data-status="error"], [data-status="stopped"]'))
      .waitFor({ timeout: 60_000 });
    const status = await lastAnswer().getAttribute('data-status');
    assert.strictEqual(status, 'complete', `the answer: ${await lastAnswer().innerText()}`);
    const hrefCount = await lastAnswer().locator('[href]').count();

    const report: Record<string, { requests: number; dialog?: string; notice?: string }> = {};
    for (const link of links()) {
      const anchor = lastAnswer().locator('a', { hasText: new RegExp(`^${link.label}$`) });
      await anchor.scrollIntoViewIfNeeded();
      if (!refused(link)) await anchor.click();
      let dialogText: string | undefined;
      if (link.label === 'L-plain-ok') {
        dialogText = await settleDialog('Open Link');
        // VS Code may ask once more for an untrusted domain (its own prompt); answering it is part of one open.
        // Until the target sees the request: neither 1.100 nor 1.139 asks, so no fixed wait for that prompt.
        const deadline = Date.now() + 30_000;
        while (hitsFor(link.label).length === 0 && Date.now() < deadline) {
          if (await dialog().isVisible()) {
            const second = await settleDialog('Open');
            if (second) dialogText += `\n---\n${second}`;
          }
          await sleep(200);
        }
      } else if (link.label === 'L-plain-cancel') {
        dialogText = await settleDialog('Cancel');
      } else {
        // A refused link says so in the composer's notice (the webview's own click handler, which also keeps VS Code's
        // webview script from acting on it): once that shows, the click was handled. A dialog it caused anyway would be
        // recorded here or, at the latest, come before the confirmation of L-plain-ok (the last link) and fail it.
        await notice().evaluate((el) => {
          el.textContent = '';
        });
        await anchor.click();
        await notice().filter({ hasText: /\S/ }).waitFor({ timeout: 10_000 });
        dialogText = (await dialog().isVisible()) ? await settleDialog() : undefined;
        report[link.label] = { requests: 0, dialog: dialogText, notice: await notice().innerText() };
        continue;
      }
      report[link.label] = { requests: 0, dialog: dialogText };
    }
    // The confirmed link is the last one clicked: once it has arrived, anything the earlier clicks started has had
    // the same path to arrive; a short settle catches a duplicate of the last one.
    await sleep(2_000);
    for (const link of links()) report[link.label].requests = hitsFor(link.label).length;
    const tabsAfter = await editorTabs();
    const windows = popups.map((p) => p.url());
    const summary = {
      version: vscodeVersion(),
      hrefsInAnswer: hrefCount,
      report,
      windows,
      hits,
      newTabs: tabsAfter.filter((t) => !tabsBefore.includes(t)),
    };
    fs.mkdirSync(resultsDir(), { recursive: true });
    fs.writeFileSync(path.join(resultsDir(), `links-${vscodeVersion()}.json`), JSON.stringify(summary, null, 2));
    console.log(`      links: ${JSON.stringify(summary)}`);

    assert.strictEqual(hrefCount, 0, 'no anchor in the answer has an href (VS Code would open it itself)');
    for (const link of links().filter((l) => !l.opens)) {
      assert.strictEqual(report[link.label].requests, 0, `${link.label} opened nothing`);
    }
    assert.strictEqual(report['L-plain-ok'].requests, 1, 'the confirmed plain link opened exactly once');
    assert.strictEqual(hits.length, 1, `one request in all: ${JSON.stringify(hits)}`);
    assert.ok(
      (report['L-plain-ok'].dialog ?? '').includes(`http://${at('L-plain-ok')}/plain-ok`),
      'the confirmation shows the exact address',
    );
    assert.match(report['L-plain-cancel'].dialog ?? '', /plain-cancel/, 'the cancelled link was asked about');
    for (const link of links().filter((l) => !l.opens && l.label !== 'L-plain-cancel')) {
      assert.strictEqual(report[link.label].dialog, undefined, `${link.label}: nothing to confirm, it is refused`);
      assert.match(
        report[link.label].notice ?? '',
        /Not a link that can be opened/,
        `${link.label}: the refusal is explained`,
      );
    }
    const plainPort = String(ports['L-plain-ok']);
    const isPlain = (w: string) => w.includes(`:${plainPort}/`) || w.includes(`/proxy/${plainPort}/`);
    assert.ok(windows.filter(isPlain).length <= 1, `at most one window for the plain link: ${JSON.stringify(windows)}`);
    assert.deepStrictEqual(
      windows.filter((w) => !isPlain(w) && w !== 'about:blank'),
      [],
      'no other window opened',
    );
    assert.deepStrictEqual(
      summary.newTabs.filter((t) => /links-secret|Untitled/.test(t)),
      [],
      'no editor opened by a file: or command: link',
    );
  });

  it("@gateway in VS Code's own chat: refused links of model output are no links there", async function () {
    if (compareVersions(vscodeVersion(), '1.104.0') < 0) this.skip(); // no gateway model to pick in the chat view before 1.104
    const prompt = `@gateway Links test: ${links()
      .map((l) => `[${l.label}](${l.href})`)
      .join(' ')} ![beacon](http://${at('L-plain-ok')}/beacon.png)`;
    await wb.page.keyboard.press('Control+Alt+KeyI');
    const input = wb.page.locator('.interactive-input-part .monaco-editor').first();
    await input.waitFor({ timeout: 30_000 });
    await wb.screenshot('links-native-chat-open');
    await input.click({ timeout: 10_000 });
    await wb.page.keyboard.insertText(prompt);
    await wb.page.keyboard.press('Enter');
    const response = wb.page.locator('.interactive-item-container.interactive-response').last();
    try {
      await response.locator('.rendered-markdown', { hasText: 'L-plain-ok' }).first().waitFor({ timeout: 60_000 });
      await wb.page
        .waitForFunction(() => !document.querySelector('.interactive-response.chat-response-loading'), undefined, {
          timeout: 60_000,
        })
        .catch(() => undefined);
    } catch (err) {
      await wb.screenshot('links-native-chat-answer');
      throw err;
    }
    const anchors = await response
      .locator('a')
      .evaluateAll((as) =>
        as.map((a) => ({ text: a.textContent ?? '', href: a.getAttribute('href'), data: a.getAttribute('data-href') })),
      );
    const images = await response.locator('img').evaluateAll((is) => is.map((i) => i.getAttribute('src')));
    console.log(`      native chat: ${JSON.stringify({ anchors, images })}`);
    for (const link of links().filter((l) => l.label !== 'L-plain-ok' && l.label !== 'L-plain-cancel')) {
      const found = anchors.filter((a) => a.text.includes(link.label));
      assert.ok(
        found.every((a) => !a.href && !a.data),
        `${link.label} is no link: ${JSON.stringify(found)}`,
      );
    }
    assert.ok(
      anchors.some((a) => a.text === 'L-plain-ok' && (a.href ?? a.data ?? '').includes(`/plain-ok`)),
      'a plain link stays a link',
    );
    assert.deepStrictEqual(
      images.filter((src) => src && /beacon/.test(src)),
      [],
      'no remote image',
    );
    assert.deepStrictEqual(
      hits.filter((h) => /beacon/.test(h.path)),
      [],
      'the image was never fetched',
    );
  });
});
