// Which tests of the VS Code layers run on which version. The newest version runs every test. The older ones (the
// minimum of engines.vscode) skip the files listed here: tests of our own logic whose VS Code side is the same on
// every version (configuration, files, the gateway's wire formats), each also run on the newest. Everything else runs
// on every version: every command and view once, and the API paths that differ between versions (the chat provider
// and participant, LM tools, webviews, terminals and shell integration, the diff editor, inline completions,
// SecretStorage and global storage, display language). A new test file runs everywhere until it is listed here;
// docs/testing.md#versions says how to decide. --grep, or MG_EVERY_TEST_ON_EVERY_VERSION=1, runs everything everywhere.
import { DEFAULT_VERSIONS } from '../provision.mjs';

/** File names (in test/host/ and test/ui/) that run on the newest version only, with where their behaviour lives. */
export const NEWEST_ONLY = {
  host: [
    'agentDemo.test.ts', // the emulator's scripted agent: gateway logic
    'balanceProbes.test.ts', // balance routes: gateway logic
    'catalogRequests.test.ts', // model-list requests: gateway logic
    'dialects.test.ts', // dialect learning: gateway logic (the UI dialects suite runs on both)
    'images.test.ts', // image requests and saving through workspace.fs (the UI images suite runs on both)
    'instructions.test.ts', // AGENTS.md reading: files
    'lazyErrors.test.ts', // error wording
    'mentions.test.ts', // @-mention search: workspace.findFiles, the same on both
    'requestHeaders.test.ts', // request headers: configuration + gateway
    'responsesDialect.test.ts', // the Responses wire format
    'unlistedGateway.test.ts', // a gateway without a model list
    'workspaceBaseUrl.test.ts', // configuration scopes
  ],
  ui: [
    'agentPlan.test.ts', // Plan mode: the same webview and diff editor as agent.test.ts, which runs on both
    'agentSafety.test.ts', // approvals against a hostile model: agent logic (agent.test.ts covers the approval UI)
    'condense.test.ts', // condensing: session logic in the chat view chat.test.ts covers
    'hostileSettings.test.ts', // a workspace's settings are not trusted: our reading of configuration.inspect
    'mentions.test.ts', // the @ picker: the chat webview chat.test.ts covers
    'subagents.test.ts', // sub-agent cards: the agent webview agent.test.ts covers (host subagents runs on both)
    'windows.test.ts', // two windows on one global storage: our files' logic (globalStorageUri is the same on both)
    'zy-dialects.test.ts', // wire formats through the chat view
    'zy-responses.test.ts',
  ],
};

/**
 * UI tests (mocha full titles: suite and test) of files that run on every version, that run on the newest only: the
 * rest of their file covers what can differ (the view, the diff editor, the terminal, a reload of the webview), these
 * check our logic through it once more. Matched as exact full titles.
 */
export const NEWEST_ONLY_TESTS = {
  ui: [
    // agent.test.ts keeps the diff editor (Accept, a new file's title, two parts), the terminal and the approval UI.
    'agent mode (UI) Reject writes nothing and the model is told',
    'agent mode (UI) the composer says what runs without asking; its click opens those settings, and a change there shows',
    'agent mode (UI) a write to .vscode/settings.json asks even with auto-approved writes (a README edit does not)',
    'agent mode (UI) Stop during a running command ends it (what it would do later never happens)',
    'agent mode (UI) Restore to before a turn from a conversation reopened from history (the accepted README edit is undone)',
    'agent mode (UI) the step budget ends a loop (maxSteps 3), with Continue left to the user (no Retry of step 1)',
    'agent mode (UI) a 429 inside the loop shows its countdown and the turn goes on by itself (the client does not retry silently)',
    'agent mode (UI) an agent turn keeps its text and tool cards in order through a real window reload',
    // platform.test.ts keeps the key commands (SecretStorage, quick picks, the 401 notification with its action).
    'platform: keys, models and errors in the workbench explains a low balance (403) after asking before the billable request',
    'platform: keys, models and errors in the workbench explains 429 with the Retry-After wait',
    'platform: keys, models and errors in the workbench tells once how a pasted endpoint URL was normalised, with the URLs called',
    'platform: keys, models and errors in the workbench explains a wrong base URL (404) with the URL that was called',
    'platform: keys, models and errors in the workbench copies support info with exactly five fields per request',
    // chat.test.ts keeps streaming, Stop, the error cards, the 429 countdown and a reload of the view.
    'chat view (UI) timeout says the outcome is unknown and offers no blind Retry',
    // A reload that restores our own state: chat.test.ts reloads the chat view on both; the image panel's other tests
    // run on both.
    'chat images (UI) a reload of the window keeps the image chips of sent messages',
    'images (UI) a reload during a pending task: the image appears once after the reload, from one submission',
    // A window of its own that checks code-server, not us: that a browser locale alone leaves a window without a
    // language pack in English (why openWorkbench sets the display language). Only a newer code-server can change
    // that; the oldest one's answer is fixed, and the suite's Chinese-window tests still run on it.
    'l10n: the workbench in Simplified Chinese (zh-cn) a browser locale alone (Accept-Language zh-CN, as --locale without a language pack) leaves the extension in English',
  ],
};

const NEWEST = DEFAULT_VERSIONS.at(-1);

/** A mocha --grep (with --invert) that leaves out the newest-only tests on an older version; undefined on the newest. */
export function invertedGrepForVersion(layer, version, { grep, env = process.env } = {}) {
  if (version === NEWEST || grep || env.MG_EVERY_TEST_ON_EVERY_VERSION === '1') return undefined;
  const titles = NEWEST_ONLY_TESTS[layer] ?? [];
  if (!titles.length) return undefined;
  const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `^(${titles.map(escape).join('|')})$`;
}

/**
 * Seconds each UI file took on the newest version (suite time, tests plus hooks, in a fresh run on a 2-core machine
 * with the other slot and the unit tests beside it; 2026-12-07 after settings went back through their editor,
 * test-results/times.json), for the order of the newest UI layer's queue; a file not listed counts as
 * QUEUE_DEFAULT_SECONDS.
 */
const UI_SECONDS = {
  'agent.test.ts': 117,
  'platform.test.ts': 77,
  'l10n.test.ts': 65,
  'agentSafety.test.ts': 61,
  'windows.test.ts': 54,
  'subagents.test.ts': 47,
  'chat.test.ts': 42,
  'agentPlan.test.ts': 36,
  'images.test.ts': 35,
  'chatImages.test.ts': 35,
  'condense.test.ts': 25,
  'completions.test.ts': 22,
  'walkthrough.test.ts': 21,
  'zz-canary.test.ts': 15,
  'hostileSettings.test.ts': 14,
  'usage.test.ts': 14,
  'links.test.ts': 13,
  'gatewayAgent.test.ts': 13,
  'zy-responses.test.ts': 8,
  'zy-dialects.test.ts': 7,
};
const QUEUE_DEFAULT_SECONDS = 15;

/**
 * UI files that run first in their process, on the profile as the harness made it: the walkthrough's test is about
 * what a start with the base URL and key already set shows, and its steps, once done by a command of a later suite
 * (Set API Key), stay done in the profile. First, it needs no window of its own (a workbench load: ~12 core-s).
 */
export const FIRST_ON_A_FRESH_PROFILE = ['walkthrough.test.ts'];

/** `files` split into those of FIRST_ON_A_FRESH_PROFILE (in its order) and the rest. */
function freshProfileFirst(files) {
  return [
    FIRST_ON_A_FRESH_PROFILE.filter((f) => files.includes(f)),
    files.filter((f) => !FIRST_ON_A_FRESH_PROFILE.includes(f)),
  ];
}

/** The order of a UI process's files (one that takes files from the queue: queueOrder): alphabetical, those first. */
export function uiFileOrder(files) {
  const [first, rest] = freshProfileFirst(files);
  return [...first, ...rest.sort()];
}

/**
 * The order of the newest UI layer's queue (scripts/lib/uiQueue.cjs), which both of its processes take files from:
 * FIRST_ON_A_FRESH_PROFILE (every process goes through the queue from its start, so whichever takes such a file
 * takes it as its first), then longest first, so that the files left when one process is done are short ones and
 * the two end close together; the files named z… stay last, in their own order (the canary checks what a whole run
 * left behind).
 */
export function queueOrder(files) {
  const seconds = (f) => UI_SECONDS[f] ?? QUEUE_DEFAULT_SECONDS;
  const [first, rest] = freshProfileFirst(files);
  const last = rest.filter((f) => f.startsWith('z')).sort();
  const longestFirst = rest
    .filter((f) => !f.startsWith('z'))
    .sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b));
  return [...first, ...longestFirst, ...last];
}

/** The test files of a layer (host or ui) to run on a version: all on the newest, the rest on older ones. */
export function filesForVersion(layer, version, files, { grep, env = process.env } = {}) {
  if (version === NEWEST || grep || env.MG_EVERY_TEST_ON_EVERY_VERSION === '1') return files;
  const skipped = new Set(NEWEST_ONLY[layer] ?? []);
  return files.filter((f) => !skipped.has(f));
}
