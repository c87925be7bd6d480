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
    'mentions.test.ts', // the @ picker: the chat webview chat.test.ts covers
    'zy-dialects.test.ts', // wire formats through the chat view
    'zy-responses.test.ts',
  ],
};

const NEWEST = DEFAULT_VERSIONS.at(-1);

/** The test files of a layer (host or ui) to run on a version: all on the newest, the rest on older ones. */
export function filesForVersion(layer, version, files, { grep, env = process.env } = {}) {
  if (version === NEWEST || grep || env.MG_EVERY_TEST_ON_EVERY_VERSION === '1') return files;
  const skipped = new Set(NEWEST_ONLY[layer] ?? []);
  return files.filter((f) => !skipped.has(f));
}
