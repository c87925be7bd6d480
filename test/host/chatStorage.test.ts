// Deleting a conversation deletes everything the extension stored for it: its history file, its agent turns'
// tool-call transcripts (globalState) and their checkpoints (copies of the files they changed), read back from the
// extension's own storage after a real agent turn through the chat session.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { testHook } from '../support/hostTest';

interface Stored {
  transcripts: string[];
  files: string[];
  checkpoints: string[];
}

describe('chat storage: deleting a conversation', function () {
  this.timeout(120_000);
  const file = () => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'chat-storage-test.txt');

  before(function () {
    if (!process.env.MG_EMULATOR_URL || !vscode.workspace.workspaceFolders?.length) this.skip();
  });
  after(() => fs.rmSync(file(), { force: true }));

  it('deletes its history file, its turns’ transcripts and their checkpoints; other conversations keep theirs', async () => {
    const turn = (text: string) =>
      testHook<{ conversationId: string; turnId: string }>('chatAgentTurn', text, 'claude-demo-sonnet');
    const kept = await turn('Look.\n@tool read_file {"path":"chat-storage-test.txt"}');
    const doomed = await turn(
      'Write it.\n@tool create_file {"path":"chat-storage-test.txt","content":"written by the agent\\n"}',
    );
    assert.equal(fs.readFileSync(file(), 'utf8'), 'written by the agent\n', 'the turn wrote (a checkpoint was made)');
    const before = await testHook<Stored>('chatStorage');
    assert.ok(before.transcripts.includes(doomed.turnId), JSON.stringify(before));
    assert.ok(before.checkpoints.includes(doomed.turnId), JSON.stringify(before));
    assert.ok(before.files.includes(`conversation-${doomed.conversationId}.json`), JSON.stringify(before));

    assert.equal(await testHook<boolean>('chatDeleteConversation', doomed.conversationId), true);
    const after = await testHook<Stored>('chatStorage');
    assert.ok(!after.files.includes(`conversation-${doomed.conversationId}.json`), JSON.stringify(after));
    assert.ok(!after.transcripts.includes(doomed.turnId), `transcript left: ${JSON.stringify(after)}`);
    assert.ok(!after.checkpoints.includes(doomed.turnId), `checkpoint left: ${JSON.stringify(after)}`);
    assert.ok(after.transcripts.includes(kept.turnId), 'the other conversation keeps its transcript');
    assert.ok(after.files.includes(`conversation-${kept.conversationId}.json`));
    await testHook('chatDeleteConversation', kept.conversationId);
  });
});
