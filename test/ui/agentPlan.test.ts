// Project instructions and Plan mode in the real workbench against the emulator: an AGENTS.md at the workspace
// root is shown with the answer ("Using AGENTS.md", which opens the file) and followed by the emulated model; a
// Plan turn reads but cannot edit (the edit the model calls anyway is refused, the file stays as it was) and ends
// in a checklist; Act on this plan switches the conversation to Agent and sends the plan as the task.
import * as assert from 'assert';
import * as fs from 'fs';
import { workspaceChatViewSuite } from '../support/workspaceChatView';

const README = '# Demo project\n\nHello world.\n';
const AGENTS_MD = '# Agent notes\n\nAlways start your answers with "Per AGENTS.md:".\n';

describe('project instructions and plan mode (UI)', function () {
  this.timeout(300_000);
  const { file, ui } = workspaceChatViewSuite({
    prepare: () => {
      fs.writeFileSync(file('README.md'), README);
      fs.writeFileSync(file('AGENTS.md'), AGENTS_MD);
    },
    // Other suites' answers must not start with the prefix.
    cleanup: () => fs.rmSync(file('AGENTS.md'), { force: true }),
  });

  it('AGENTS.md is shown with an Ask answer, opens from there, and the model follows it', async () => {
    await ui.view.newAgentChat('plan');
    // Back to Ask: the same conversation, no tools.
    await ui.view.frame.locator('.composer select.mode').selectOption('ask');
    await ui.view.frame.locator('.composer[data-mode="ask"]').waitFor({ timeout: 30_000 });
    await ui.view.send('Say hello.');
    await ui.view.finished();
    const answer = ui.view.lastAnswer();
    assert.match(await answer.locator('.body').innerText(), /^Per AGENTS\.md:/, 'the model followed AGENTS.md');
    const used = answer.locator('.instructions-used');
    assert.match(await used.innerText(), /Using AGENTS\.md/);
    await used.locator('button', { hasText: 'AGENTS.md' }).click();
    await ui.wb.page
      .locator('.tabs-container .tab', { hasText: 'AGENTS.md' })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
  });

  it('a Plan turn reads, its edit is refused and nothing is written; Act on this plan runs it in Agent mode', async () => {
    await ui.view.newAgentChat('plan');
    await ui.view.send(
      'Change the greeting to Hello plan\n@tool read_file {"path":"README.md"}\n' +
        '@force-tool propose_edit {"path":"README.md","edits":[{"search":"Hello world.","replace":"Hello plan."}]}',
    );
    await ui.view.finished();
    const answer = ui.view.lastAnswer();
    const edit = answer.locator('.tool-card[data-status="refused"]', {
      has: ui.view.frame.locator('.tool-name', { hasText: 'propose_edit' }),
    });
    assert.match(await edit.innerText(), /Plan mode is read-only/);
    assert.equal(await answer.locator('.tool-card[data-status="done"] .tool-name').innerText(), 'read_file');
    assert.match(await answer.locator('.body').innerText(), /Change the greeting to Hello plan/);
    assert.equal(fs.readFileSync(file('README.md'), 'utf8'), README, 'nothing written');
    assert.equal(await ui.view.frame.locator('section.changes').isVisible(), false, 'no change proposed');
    const messages = await ui.view.frame.locator('.message.assistant').count();
    await answer.locator('button', { hasText: 'Act on this plan' }).click();
    await ui.view.frame.locator('.composer[data-mode="agent"]').waitFor({ timeout: 30_000 });
    await ui.view.frame.locator('.message.assistant').nth(messages).waitFor({ state: 'attached', timeout: 30_000 });
    assert.match(
      await ui.view.frame.locator('.message.user').last().innerText(),
      /Act on this plan:[\s\S]*the assistant wrote it, not the user[\s\S]*Plan:\s+(?:>\s*)?- \[ \] Change the greeting to Hello plan/,
    );
    await ui.view.finished();
    assert.equal(await ui.view.lastAnswer().locator('button', { hasText: 'Act on this plan' }).count(), 0);
  });
});
