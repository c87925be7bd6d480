// The walkthrough (issue 45 item 13): its step texts are plain text with command links (VS Code shows no other
// markdown there, so "(no `/v1`)" showed its backticks), and the base-URL and key steps are checked off by a context key
// the extension sets however the URL and key came (`npm start` sets both before VS Code starts).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const read = (rel: string) => JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8')) as Record<string, unknown>;

interface Step {
  id: string;
  description: string;
  completionEvents?: string[];
}
const steps = (
  read('package.json') as { contributes: { walkthroughs: Array<{ steps: Step[] }> } }
).contributes.walkthroughs.flatMap((w) => w.steps);

describe('walkthrough', () => {
  it('step texts hold no markdown but command links (no backticks, stars or underscores shown as they are)', () => {
    for (const file of ['package.nls.json', 'package.nls.zh-cn.json']) {
      const nls = read(file) as Record<string, string>;
      for (const step of steps) {
        const key = step.description.slice(1, -1);
        const text = nls[key];
        assert.ok(text, `${file}: ${key}`);
        const withoutLinks = text.replace(/\[[^\]]+\]\(command:[\w.]+\)/g, '');
        assert.doesNotMatch(withoutLinks, /[`*_]/, `${file}: ${key} → ${text}`);
      }
    }
  });

  it('the base-URL and key steps are also done by the context keys the extension sets', () => {
    // src/diagnostics/walkthroughContext.ts imports vscode: its two names are read from its text.
    const source = fs.readFileSync(path.join(root, 'src/diagnostics/walkthroughContext.ts'), 'utf8');
    const named = (constant: string) => new RegExp(`${constant} = '([\\w.]+)'`).exec(source)?.[1] ?? '';
    const [BASE_URL_SET_CONTEXT, HAS_API_KEY_CONTEXT] = [named('BASE_URL_SET_CONTEXT'), named('HAS_API_KEY_CONTEXT')];
    assert.deepEqual(
      [BASE_URL_SET_CONTEXT, HAS_API_KEY_CONTEXT],
      ['modelGateway.baseUrlSet', 'modelGateway.hasApiKey'],
    );
    const events = (id: string) => steps.find((s) => s.id === id)?.completionEvents ?? [];
    assert.ok(events('baseUrl').includes(`onContext:${BASE_URL_SET_CONTEXT}`), JSON.stringify(events('baseUrl')));
    assert.ok(events('apiKey').includes(`onContext:${HAS_API_KEY_CONTEXT}`), JSON.stringify(events('apiKey')));
  });

  it('the steps VS Code is told to mark done are the base-URL and key steps of our walkthrough, by their full ids', () => {
    // VS Code's step id: <publisher>.<name>#<walkthrough id>#<step id>; the extension builds it from WALKTHROUGH_ID.
    const pkg = read('package.json') as {
      publisher: string;
      name: string;
      contributes: { walkthroughs: Array<{ id: string; steps: Step[] }> };
    };
    const actions = fs.readFileSync(path.join(root, 'src/diagnostics/quickActions.ts'), 'utf8');
    const walkthroughId = /WALKTHROUGH_ID = '([^']+)'/.exec(actions)?.[1];
    const walkthrough = pkg.contributes.walkthroughs.find(
      (w) => `${pkg.publisher}.${pkg.name}#${w.id}` === walkthroughId,
    );
    assert.ok(walkthrough, `WALKTHROUGH_ID ${walkthroughId} names a walkthrough of package.json`);
    const source = fs.readFileSync(path.join(root, 'src/diagnostics/walkthroughContext.ts'), 'utf8');
    for (const [constant, step] of [
      ['BASE_URL_STEP', 'baseUrl'],
      ['API_KEY_STEP', 'apiKey'],
    ]) {
      assert.match(source, new RegExp(`${constant} = \`\\$\\{WALKTHROUGH_ID\\}#${step}\``));
      assert.ok(
        walkthrough.steps.some((s) => s.id === step),
        step,
      );
    }
    assert.match(source, /'welcome\.markStepComplete'/);
  });
});
