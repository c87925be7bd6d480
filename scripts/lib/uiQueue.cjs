// The newest UI layer's files as one queue that two mocha processes (one per harness slot, each with its own
// code-server and window) take from: both load every file in the same order (longest first, versionMatrix.mjs
// queueOrder), and a top-level suite runs in the process that claims its file first. A claim is a folder made in
// MG_UI_QUEUE (mkdir is atomic: one process wins); the other process marks the suite pending before any of its hooks
// run, and the harness reporter leaves it out of its counts. So the two processes end within about one file of each
// other, whatever each file takes on this machine, where a split fixed in advance left one slot idle for 17-129 s.
'use strict';
const fs = require('fs');
const path = require('path');

const mine = new Set();

/**
 * True when this process runs the top-level `suite` (no queue, or its file is claimed here now or was before); false
 * when the other process has it.
 */
function claimSuite(suite, queue = process.env.MG_UI_QUEUE) {
  if (!queue) return true;
  const key = path.basename(suite.file || suite.title);
  if (mine.has(key)) return true;
  try {
    fs.mkdirSync(path.join(queue, key));
  } catch (err) {
    if (err.code === 'EEXIST') return false;
    throw err;
  }
  mine.add(key);
  return true;
}

/** Whether a queue still has a file of `files` nobody has claimed (a process that would run none is not started). */
function unclaimed(queue, files) {
  return files.filter((f) => !fs.existsSync(path.join(queue, path.basename(f))));
}

module.exports = { claimSuite, unclaimed };
