// Sub-agents in the real workbench (issue 47), against the emulator's scripted models (directives in the question
// drive the parent, directives in a task drive its sub-agent): parallel explorers each get a card inside their
// start_subagent call with their model, figures and cost, and the footer sums them; an editing sub-agent's change
// waits in the same Pending changes, labelled with it, until Accept; a window reload in the middle of a turn shows the
// finished sub-agent with its report and cost, the unfinished one as stopped, and sends nothing again.
// (The cheaper cases, a refused model, Stop, the budget and a hostile child, are in test/host/subagents.test.ts.)
import * as assert from 'assert';
import * as fs from 'fs';
import { reloadAndReopen, userSettingsFile, waitForWorkspaceFile, writeUserSettings } from '../support/chatView';
import { workspaceChatViewSuite } from '../support/workspaceChatView';

/** A parent's directive line that starts these sub-agents in one message (they run in parallel). */
const spawn = (...tasks: Array<Record<string, unknown>>): string =>
  `@tools-parallel ${tasks.map((t) => `start_subagent ${JSON.stringify(t)}`).join(' ')}`;
const list = (dir: string) => ({ task: `Look in ${dir}.\n@tool list_directory ${JSON.stringify({ path: dir })}` });

describe('sub-agents (UI)', function () {
  this.timeout(300_000);
  const { admin, file, ui } = workspaceChatViewSuite({
    prepare: () => {
      for (const d of ['ui-sub-a', 'ui-sub-b']) fs.mkdirSync(file(d), { recursive: true });
      fs.writeFileSync(file('ui-sub-a/alpha.txt'), 'alpha\n');
      fs.writeFileSync(file('ui-sub-b/beta.txt'), 'beta\n');
    },
    cleanup: () => {
      for (const rel of ['ui-sub-a', 'ui-sub-b', 'SUB-EDIT.md', 'SUB-RELOAD.md'])
        fs.rmSync(file(rel), { recursive: true, force: true });
    },
  });

  // Editing sub-agents allowed for the suite, two at once, through settings.json's editor (an enum has no text box
  // in the Settings editor); the suite's clean-up puts the file back the same way.
  before(async () => {
    const settings = JSON.parse(fs.readFileSync(userSettingsFile(), 'utf8') || '{}') as Record<string, unknown>;
    settings['modelGateway.agent.subagents'] = 'edit';
    settings['modelGateway.agent.maxParallelSubagents'] = 2;
    await writeUserSettings(ui.wb, ui.view, JSON.stringify(settings, null, 2));
  });

  const subCards = () => ui.view.lastAnswer().locator('details.subagent-card');
  const messagesRequests = async () => (await admin.requests()).filter((r) => r.route === 'messages').length;

  it('two explorers in parallel: a card each inside its call with model, figures and cost, its call inside; the footer sums them', async () => {
    await ui.view.newAgentChat();
    await ui.view.send(`Explore both.\n${spawn(list('ui-sub-a'), list('ui-sub-b'))}`);
    await ui.view.finished();
    assert.equal(await subCards().count(), 2);
    for (const [i, dir] of ['ui-sub-a', 'ui-sub-b'].entries()) {
      const card = subCards().nth(i);
      assert.equal(await card.getAttribute('data-status'), 'done');
      // Inside its own start_subagent call's card.
      assert.equal(await card.locator('xpath=ancestor::*[contains(@class,"tool-card")][1]').count(), 1);
      assert.match(await card.locator('.subagent-title').innerText(), /Sub-agent \(explorer\) on claude-demo-\w+/);
      assert.match(await card.locator('.subagent-task').innerText(), new RegExp(`Look in ${dir}\\.`));
      assert.match(
        await card.locator('.subagent-figures').innerText(),
        /^2 steps · 1 tool calls · .*out [\d,]+.* · (≈)?\$?[\d.]+.*(billed|estimate)/,
      );
      await card.locator(':scope > summary').click();
      const call = card.locator('.subagent-tools .tool-card');
      assert.equal(await call.count(), 1);
      assert.match(await call.locator('.tool-name').innerText(), /list_directory/);
      await card.locator('.subagent-end details.tool-result summary').click();
      assert.match(
        await card.locator('.subagent-end details.tool-result pre').innerText(),
        new RegExp(`${dir}: 1 entry`),
      );
    }
    assert.match(
      await ui.view.lastAnswer().locator('.agent-cost .subagents-tokens').innerText(),
      /^Sub-agents: .*out [\d,]+/,
    );
  });

  it("an editing sub-agent's change waits in the same Pending changes, labelled with it, until Accept", async () => {
    fs.writeFileSync(file('SUB-EDIT.md'), 'one\n');
    await ui.view.newAgentChat();
    await ui.view.send(`Delegate the edit.\n${spawn({ task: 'Edit.\n@edit SUB-EDIT.md one=>two', role: 'edit' })}`);
    const change = ui.view.frame.locator('section.changes li.change', { hasText: 'SUB-EDIT.md' });
    await change.waitFor({ timeout: 90_000 });
    assert.match(await change.locator('.badge.subagent').innerText(), /by a sub-agent/);
    const card = subCards().first();
    assert.equal(await card.getAttribute('data-status'), 'running');
    assert.match(await card.locator('.subagent-title').innerText(), /Sub-agent \(editor\)/);
    assert.equal(fs.readFileSync(file('SUB-EDIT.md'), 'utf8'), 'one\n', 'nothing written before Accept');
    await change.locator('button', { hasText: 'Accept' }).click();
    await waitForWorkspaceFile('SUB-EDIT.md', (t) => t === 'two\n', 'Accept writes the sub-agent’s edit');
    await ui.view.finished();
    assert.equal(await card.getAttribute('data-status'), 'done');
    await card.locator(':scope > summary').click();
    assert.match(await card.locator('.subagent-tools .tool-card .tool-name').first().innerText(), /propose_edit/);
  });

  it('a window reload mid-turn: the finished sub-agent keeps its report and cost, the unfinished one shows stopped; nothing is resent', async () => {
    fs.writeFileSync(file('SUB-RELOAD.md'), 'before\n');
    await ui.view.newAgentChat();
    await ui.view.send(
      `Both.\n${spawn(list('ui-sub-a'), { task: 'Edit.\n@edit SUB-RELOAD.md before=>after', role: 'edit' })}`,
    );
    // The explorer finishes; the editor waits for the review of its change.
    await ui.view.frame.locator('section.changes li.change', { hasText: 'SUB-RELOAD.md' }).waitFor({ timeout: 90_000 });
    await subCards().and(ui.view.frame.locator('[data-status="done"]')).first().waitFor({ timeout: 90_000 });
    const sent = await messagesRequests();
    await reloadAndReopen(ui.wb, ui.view, '.message.assistant .agent-end');
    const cards = ui.view.frame.locator('.message.assistant').last().locator('details.subagent-card');
    await cards.nth(1).waitFor({ state: 'attached', timeout: 30_000 });
    const done = cards.and(ui.view.frame.locator('[data-status="done"]'));
    const stopped = cards.and(ui.view.frame.locator('[data-status="stopped"]'));
    assert.equal(await done.count(), 1);
    assert.equal(await stopped.count(), 1);
    assert.match(await done.locator('.subagent-figures').innerText(), /(billed|estimate)/);
    await done.locator(':scope > summary').click();
    await done.locator('.subagent-end details.tool-result summary').click();
    assert.match(await done.locator('.subagent-end details.tool-result pre').innerText(), /ui-sub-a: 1 entry/);
    assert.match(await stopped.locator('.subagent-status').innerText(), /stopped/);
    // Nothing went to the gateway again by itself, and the unreviewed change was not written.
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(await messagesRequests(), sent, 'no request after the reload');
    assert.equal(fs.readFileSync(file('SUB-RELOAD.md'), 'utf8'), 'before\n');
  });
});
