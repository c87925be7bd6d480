// A workspace opened through a symlink (macOS /tmp → /private/tmp, a linked home or checkout): paths the model writes
// are judged where their folder really is, so a plain read stays automatic and only a link *inside* the workspace
// that leads out of it is refused (as a disguise). Before, every path there looked like a link leading outside.
import * as assert from 'node:assert/strict';
import { decide, onRealFolder, type PolicyFacts, type PolicySettings } from '../../../src/agent';

const OPENED = '/tmp/ws';
const REAL = '/private/tmp/ws';
const SETTINGS: PolicySettings = { workspaceFolders: [REAL] };

/** The facts the agent host builds for a read of `written` whose bytes really are at `real` (pathTarget). */
function readFacts(written: string, real: string): PolicyFacts {
  const judged = onRealFolder(written, [OPENED], [REAL]);
  return {
    toolName: 'read_file',
    approvalClass: 'read',
    target: judged === real ? { paths: [real] } : { paths: [real, judged], links: [{ written: judged, real }] },
  };
}

describe('agent paths: a workspace opened through a symlink', () => {
  it('onRealFolder rebases paths in an opened folder on its real path; others unchanged; Windows separators kept', () => {
    assert.equal(onRealFolder('/tmp/ws/src/a.ts', [OPENED], [REAL]), '/private/tmp/ws/src/a.ts');
    assert.equal(onRealFolder('/tmp/ws', [OPENED], [REAL]), REAL);
    assert.equal(onRealFolder('/tmp/other/a.ts', [OPENED], [REAL]), '/tmp/other/a.ts');
    assert.equal(onRealFolder('/w/a.ts', ['/w'], ['/w']), '/w/a.ts');
    assert.equal(onRealFolder('C:\\link\\src\\a.ts', ['C:\\link'], ['D:\\real']), 'D:\\real\\src\\a.ts');
    assert.equal(
      onRealFolder('/tmp/ws/a', ['/tmp/ws', '/x'], [REAL]),
      '/tmp/ws/a',
      'folders and real paths out of step: unchanged',
    );
  });

  it('a plain read there is automatic; a link inside it that leads out is refused; the old judging asked for every read', () => {
    assert.equal(decide(readFacts('/tmp/ws/README.md', '/private/tmp/ws/README.md'), SETTINGS).decision, 'auto');
    const escape = decide(readFacts('/tmp/ws/outside-link/notes.txt', '/srv/secret/notes.txt'), SETTINGS);
    assert.equal(escape.decision, 'refuse');
    assert.equal(escape.rule, 'symlink-escape');
    // What the host sent before (the path as written, folder link unresolved): a read inside the workspace asked.
    const before: PolicyFacts = {
      toolName: 'read_file',
      approvalClass: 'read',
      target: {
        paths: ['/private/tmp/ws/README.md', '/tmp/ws/README.md'],
        links: [{ written: '/tmp/ws/README.md', real: '/private/tmp/ws/README.md' }],
      },
    };
    assert.equal(decide(before, SETTINGS).decision, 'ask');
  });
});
