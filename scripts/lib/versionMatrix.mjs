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
 * with the other slot and the unit tests beside it; 2026-12-07 after the settings fixes, test-results/times.json), for splitting the newest
 * UI layer into parts that run in both slots at once; a file not listed counts as SHARD_DEFAULT_SECONDS.
 */
const UI_SECONDS = {
  'agent.test.ts': 147,
  'agentSafety.test.ts': 94,
  'windows.test.ts': 69,
  'l10n.test.ts': 65,
  'subagents.test.ts': 60,
  'chat.test.ts': 47,
  'platform.test.ts': 45,
  'condense.test.ts': 43,
  'images.test.ts': 43,
  'chatImages.test.ts': 33,
  'walkthrough.test.ts': 22,
  'usage.test.ts': 17,
  'zz-canary.test.ts': 17,
  'completions.test.ts': 16,
  'zy-responses.test.ts': 16,
  'hostileSettings.test.ts': 13,
  'links.test.ts': 11,
  'gatewayAgent.test.ts': 11,
  'agentPlan.test.ts': 10,
};
const SHARD_DEFAULT_SECONDS = 15;

/**
 * The head start of the newest UI layer's first part, in the same seconds: that part starts first (about 1 min
 * before the second, which waits for the oldest UI layer), so it ends first and its slot then runs the newest host
 * layer (about 4 min). Fresh runs on 2 cores, 2026-12-07: equal parts left the other slot idle for the last
 * 3 minutes (part 1 4:25 → 12:44, then host → 16:42; part 2 5:57 → 13:50); a head start of 150 for 1:44 (part 1
 * 4:28 → 11:45, then host → 15:22; part 2 5:14 → 13:38); with 240 and the table above refreshed, the slot of part 2
 * for 1:03 (part 1 4:02 → 10:02, then host → 13:58; part 2 4:56 → 12:55); with the refreshed table, 200 left the slot
 * of part 2 idle for 129 s (part 2 4:28 → 11:42, part 1 3:38 → 10:09, then host → 13:51) and 240 for 109 s (part 2
 * 4:47 → 12:05, part 1 3:52 → 9:35, then host → 13:54). With 320, two fresh runs: slots ending 3 s apart (part 2 →
 * 13:48, host → 13:45) and 75 s apart (part 2 → 13:24, host → 14:39): the newest host layer varies most (279 and
 * 331 s), and the oldest UI layer before part 2 got shorter (its browser-locale test is newest-only): 360 moves the
 * walkthrough suite (a window of its own) from part 1 to part 2, about 25 s.
 */
export const FIRST_PART_HEAD_START = 360;

/**
 * The files split into `parts` lists (longest file first into the lightest part), each in the files' own order, of
 * about equal time once part i is counted as already holding headStart[i] seconds. One part when parts <= 1.
 */
export function splitByTime(files, parts, headStart = []) {
  if (parts <= 1 || files.length <= 1) return [files];
  const loads = Array.from({ length: parts }, (_, i) => ({ seconds: headStart[i] ?? 0, files: new Set() }));
  const seconds = (f) => UI_SECONDS[f] ?? SHARD_DEFAULT_SECONDS;
  for (const f of [...files].sort((a, b) => seconds(b) - seconds(a))) {
    const lightest = loads.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.seconds += seconds(f);
    lightest.files.add(f);
  }
  return loads.map((l) => files.filter((f) => l.files.has(f))).filter((part) => part.length);
}

/** The test files of a layer (host or ui) to run on a version: all on the newest, the rest on older ones. */
export function filesForVersion(layer, version, files, { grep, env = process.env } = {}) {
  if (version === NEWEST || grep || env.MG_EVERY_TEST_ON_EVERY_VERSION === '1') return files;
  const skipped = new Set(NEWEST_ONLY[layer] ?? []);
  return files.filter((f) => !skipped.has(f));
}
