// The fresh-clone check of `npm test`: the README's commands in a `git clone` of this working tree, so a file
// that exists here but is not in git (untracked, ignored) or a folder a script forgets to create cannot hide.
// Cheap on purpose: node_modules and the provisioned VS Code builds are linked, not installed again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { niced, run, secs } from './proc.mjs';

/** The README commands checked, in order: [title, npm args]. */
const COMMANDS = [
  ['npm run build', ['run', 'build']],
  ['npm run package', ['run', 'package']],
  ['npm run bench -- size', ['run', 'bench', '--', 'size']],
  ['npm start -- --check', ['start', '--', '--check']],
];

/**
 * Clones root's HEAD into a temp folder and applies the working tree's changes to tracked files (what a commit of
 * them would hold; untracked files stay out, as they would in a real clone). Returns the clone's path.
 */
async function cloneWorkingTree(root) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-fresh-clone-'));
  await run('git', ['clone', '--quiet', '--shared', root, dir], { quiet: true });
  const diff = await run('git', ['diff', 'HEAD', '--binary'], { cwd: root, capture: true });
  if (diff.trim()) {
    const patch = path.join(dir, '.git', 'working-tree.patch');
    fs.writeFileSync(patch, diff);
    await run('git', ['apply', '--whitespace=nowarn', patch], { cwd: dir, quiet: true });
  }
  return dir;
}

/** Links what `npm ci` and provisioning would produce (node_modules, .vscode-test's VS Code builds) into the clone. */
function linkInstalled(root, dir) {
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const cache = path.join(root, '.vscode-test');
  if (!fs.existsSync(cache)) return;
  fs.mkdirSync(path.join(dir, '.vscode-test'));
  for (const d of fs.readdirSync(cache)) {
    // Only the provisioned builds (their markers hold absolute paths, which stay valid): no runs, profiles or locks,
    // and no build still being installed (it has no marker yet; the clone would install into the same folder).
    if (/^(code-server-[\d.]+|node\d+)$/.test(d) && fs.existsSync(path.join(cache, d, '.provisioned.json')))
      fs.symlinkSync(path.join(cache, d), path.join(dir, '.vscode-test', d), 'dir');
  }
}

/**
 * A failed command's message for the summary, which prints a failure's first lines: where its whole output is kept
 * (test-results/fresh-clone-<command>.log; the clone and its logs are removed) and the output's last lines, where
 * the cause is (a run with two copies at once printed only `npm start`'s banner, 2026-12-08).
 */
function keptOutput(root, title, message) {
  const file = path.join(root, 'test-results', `fresh-clone-${title.replace(/\W+/g, '-').replace(/^-|-$/g, '')}.log`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${message}\n`);
  const lines = message.split('\n');
  const last = lines
    .slice(1)
    .filter((l) => l.trim())
    .slice(-4);
  return [`${lines[0]} (whole output: ${path.relative(root, file)})`, ...last].join('\n');
}

/** Runs the check; returns a summary row {passed, failed, failures, note}. */
export async function freshCloneCheck(root, { log = console.log } = {}) {
  const t0 = Date.now();
  const dir = await cloneWorkingTree(root);
  const row = { passed: 0, failed: 0, failures: [] };
  try {
    linkInstalled(root, dir);
    log(`clone of the working tree in ${dir} (${secs(t0)}s)`);
    // Nothing of this checkout's environment that names its folders (npm_package_json, INIT_CWD, …).
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$)/i.test(k)));
    for (const [title, args] of COMMANDS) {
      const t1 = Date.now();
      try {
        // A hang guard, not a budget: each command takes seconds (12 s for all four on an idle machine). At a lower
        // priority: it runs beside the VS Code layers, which end the run; it has minutes to spare, they have none
        // (at nice 0 its 50-65 core-s were taken from them).
        await run(...niced(5, 'npm', args), { cwd: dir, env, quiet: true, idleMs: 600_000 });
        row.passed++;
        log(`✓ ${title} (${secs(t1)}s)`);
      } catch (err) {
        row.failed++;
        row.failures.push({ title: `fresh clone: ${title}`, message: keptOutput(root, title, err.message) });
        log(`✗ ${title} (${secs(t1)}s)`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  row.note = `${secs(t0)}s`;
  return row;
}
