// An @file mention in the real workbench against the emulator: typing `@` and part of a file's name lists it, Enter
// attaches it as a chip with its size in tokens, and the question sent in Ask mode carries the file's content to the
// gateway: the emulator's reply quotes the user message it received, and its request log counts the tokens.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { openFreshChatView, recordChatFailure, type ChatView } from '../support/chatView';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { workspaceDir } from '../support/env';
import type { Workbench } from '../support/workbench';

describe('chat @-mentions (UI)', function () {
  this.timeout(300_000);
  let wb: Workbench;
  let view: ChatView;
  const admin = EmulatorAdmin.fromEnv();
  const tag = Date.now().toString(36);
  const folder = path.join(workspaceDir(), 'mention-ui');
  const name = `mentioned-${tag}.md`;
  const marker = `UI-MENTION-CONTENT-${tag}`;

  before(async () => {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, name), `# Mentioned\n\n${marker}\n`);
    ({ wb, view } = await openFreshChatView());
    await view.frame.locator('.composer[data-mode="ask"]').waitFor({ timeout: 30_000 });
  });
  after(async () => {
    fs.rmSync(folder, { recursive: true, force: true });
    await wb?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await recordChatFailure(wb, this.currentTest.title);
  });

  it('an @file chip sent in Ask: the file’s content reaches the gateway', async () => {
    const input = view.frame.locator('.composer .input');
    await input.click();
    await input.pressSequentially(`@mentioned-${tag}`);
    const option = view.frame.locator('.mention-option[data-kind="file"]', { hasText: name });
    await option.waitFor({ timeout: 30_000 });
    // The entry found by the query is the first one: Enter attaches it.
    await view.frame.locator('.mention-option[aria-selected="true"]', { hasText: name }).waitFor({ timeout: 30_000 });
    await input.press('Enter');
    const chip = view.frame.locator('.composer .chip[data-kind="file"]', { hasText: name });
    await chip.waitFor({ timeout: 30_000 });
    assert.match(await chip.locator('.chip-tokens').innerText(), /^~\d+ tokens$/);
    assert.strictEqual(await chip.getAttribute('title').then((t) => t?.split(' · ')[0]), `mention-ui/${name}`);
    assert.strictEqual(
      await input.inputValue(),
      `@mention-ui/${name} `,
      'the typed @query became the reference (the sentence keeps it), the content is the chip',
    );

    const before = (await admin.requests()).length;
    await view.send('What does the attached file say?');
    await view.finished();
    const answer = await view.lastAnswer().locator('.body').innerText();
    assert.ok(answer.includes(marker), `the gateway received the file's content: ${answer.slice(0, 300)}`);
    // The quoted question is rendered as markdown: `File \`path\`:` shows as `File path:`.
    assert.ok(answer.includes(`File mention-ui/${name}:`), 'the model read it as that file');
    const sent = (await admin.requests()).slice(before).filter((r) => r.path.includes('/v1/messages'));
    assert.strictEqual(sent.length, 1);
    assert.strictEqual(await view.frame.locator('.composer .chip').count(), 0, 'the chip went with the question');
    assert.strictEqual(
      await view.frame.locator('.message.user').last().locator('.chip', { hasText: name }).count(),
      1,
      'the question shows what it was sent with',
    );
  });
});
