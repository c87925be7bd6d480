// The reference a picked @-mention leaves in the sentence (the words around it stay).
import { strict as assert } from 'node:assert';
import { insertMention, mentionReference } from '../../../src/webview/chat/mentionText';

describe('mention references in the sentence', () => {
  it('a file or folder by its path, the other kinds by their id', () => {
    assert.equal(mentionReference({ kind: 'file', path: 'src/text.js' }), '@src/text.js');
    assert.equal(mentionReference({ kind: 'folder', path: 'src' }), '@src');
    assert.equal(mentionReference({ kind: 'problems' }), '@problems');
    assert.equal(mentionReference({ kind: 'changes' }), '@changes');
  });

  it('"Explain @te please" keeps "please" and one space; the caret lands after the reference', () => {
    const value = 'Explain @te please';
    const at = { start: 8, end: 11 };
    const next = insertMention(value, at, { kind: 'file', path: 'text.js' });
    assert.equal(next.value, 'Explain @text.js please');
    assert.equal(next.value.slice(next.caret), 'please');
  });

  it('at the end a space is added so typing goes on', () => {
    const next = insertMention('Check @prob', { start: 6, end: 11 }, { kind: 'problems' });
    assert.equal(next.value, 'Check @problems ');
    assert.equal(next.caret, next.value.length);
  });
});
