// @gateway's agent rules in plain node: which tools a request offers, how approval is decided when VS Code
// confirms, which input values the policy judges as paths, and that progress lines cannot carry links.
import { strict as assert } from 'node:assert';
import { decide, DEFAULT_SECRET_PATTERNS } from '../../../src/agent';
import {
  apiToolName,
  approveInVsCodeChat,
  FOOTER_SEPARATOR,
  withoutFooter,
  inertText,
  offeredToolNames,
  pathsInInput,
  selectionOf,
  toolCallLine,
  usageFooter,
} from '../../../src/lm/agentText';

describe('lm agentText', () => {
  describe('offeredToolNames', () => {
    const available = ['copilot_readFile', 'mcp_github_search', 'modelGateway_listModels', 'editor_apply_internal'];

    it('offers no tool without a # reference: a plain question stays one request', () => {
      assert.deepEqual(offeredToolNames({ available, referenced: [] }), []);
      assert.deepEqual(
        offeredToolNames({ available, referenced: [], selection: new Map([['copilot_readFile', true]]) }),
        [],
      );
    });

    it('offers exactly the referenced tools that exist, once each, never *_internal ones', () => {
      assert.deepEqual(
        offeredToolNames({
          available,
          referenced: ['modelGateway_listModels', 'nope', 'modelGateway_listModels', 'editor_apply_internal'],
        }),
        ['modelGateway_listModels'],
      );
    });

    it("drops a referenced tool the request's selection switched off", () => {
      const selection = new Map([
        ['copilot_readFile', false],
        ['mcp_github_search', true],
      ]);
      assert.deepEqual(
        offeredToolNames({ available, referenced: ['copilot_readFile', 'mcp_github_search'], selection }),
        ['mcp_github_search'],
      );
    });

    it('reads a selection keyed by names or by tool infos, and ignores anything else', () => {
      const sel = selectionOf(
        new Map<unknown, unknown>([
          ['a', true],
          [{ name: 'b' }, false],
          [{}, true],
          ['c', 'yes'],
        ]),
      );
      assert.deepEqual(
        [...sel!],
        [
          ['a', true],
          ['b', false],
        ],
      );
      assert.equal(selectionOf(undefined), undefined);
      assert.equal(selectionOf({ a: true }), undefined);
    });
  });

  it('apiToolName makes Messages API names, unique', () => {
    const taken = new Set<string>();
    assert.equal(apiToolName('mcp.server/tool name', taken), 'mcp_server_tool_name');
    assert.equal(apiToolName('mcp.server/tool name', taken), 'mcp_server_tool_name_2');
    assert.equal(apiToolName('x'.repeat(80), taken).length, 64);
    assert.equal(apiToolName('', taken), 'tool');
  });

  describe('approval in VS Code chat', () => {
    const policy = { workspaceFolders: ['/ws'] };
    const verdict = (paths: string[]) =>
      decide({ toolName: 't', approvalClass: 'external', target: { paths } }, policy);

    it("leaves ordinary external calls to VS Code's confirmation", () => {
      assert.equal(verdict(['/ws/src/a.ts']).rule, 'external-tool');
      assert.deepEqual(approveInVsCodeChat(verdict(['/ws/src/a.ts']).rule), { approved: true });
      assert.deepEqual(approveInVsCodeChat(verdict([]).rule), { approved: true });
      assert.deepEqual(approveInVsCodeChat(verdict(['/etc/hosts']).rule), { approved: true });
    });

    it('refuses secret files in the policy, before VS Code is asked', () => {
      assert.equal(verdict(['/ws/.env']).decision, 'refuse');
      assert.ok(DEFAULT_SECRET_PATTERNS.length > 0);
    });

    it('denies calls touching repository or editor configuration (auto-approve could let them through)', () => {
      for (const p of [
        '/ws/.vscode/settings.json',
        '/ws/.git/hooks/pre-commit',
        '/ws/.devcontainer/devcontainer.json',
        '/ws/x.code-workspace',
      ]) {
        const v = verdict([p]);
        assert.equal(v.decision, 'ask', p);
        const answer = approveInVsCodeChat(v.rule);
        assert.equal(answer.approved, false, p);
        assert.match(answer.reason!, /Agent mode/);
      }
    });
  });

  describe('pathsInInput', () => {
    it('finds paths under path-like keys at any depth, as file: URIs too', () => {
      const input = {
        filePath: 'src/a.ts',
        options: { file_path: '/ws/.env', uris: ['file:///ws/b%20c.ts', 'https://example.com/x'] },
        edits: [{ path: '.vscode/settings.json', text: 'src/not-a-path-key.ts' }],
        cwd: '/ws',
        query: '.env',
      };
      assert.deepEqual(pathsInInput(input).sort(), [
        '.vscode/settings.json',
        '/ws',
        '/ws/.env',
        '/ws/b c.ts',
        'src/a.ts',
      ]);
    });

    it('skips globs, other schemes, empty strings and non-strings; keeps Windows drive paths', () => {
      assert.deepEqual(
        pathsInInput({ path: '**/*.ts', file: '', dir: 3, uri: 'vscode-remote://x/y', filename: 'C:\\ws\\a.ts' }),
        ['C:\\ws\\a.ts'],
      );
      assert.deepEqual(pathsInInput({ uri: 'file:///c:/ws/a.ts' }), ['c:/ws/a.ts']);
      assert.deepEqual(pathsInInput('a.ts'), []);
    });
  });

  describe('progress lines', () => {
    it('show the tool name and a short input, with no markdown that could link or format', () => {
      const line = toolCallLine('mcp_fetch', {
        url: 'https://evil.example/[x](https://a.b)',
        note: '<img src=x> `code` *b* www.evil.example a@b.c',
      });
      assert.ok(line.startsWith('Running mcp\\_fetch '));
      assert.doesNotMatch(line, /(^|[^\\])[[\]()<>`*]/);
      assert.doesNotMatch(line, /https:\/\//);
      assert.doesNotMatch(line, /www\.evil/);
      assert.doesNotMatch(line, /a@b/);
      assert.equal(toolCallLine('t', {}), 'Running t');
    });

    it('shorten long input and flatten line breaks and control characters', () => {
      const shown = inertText(`a\nb\u202Ec${'x'.repeat(300)}`, 20);
      assert.equal(shown.startsWith('a b c'), true);
      assert.ok(shown.endsWith('…'));
      assert.ok(shown.length <= 20);
    });
  });

  it("usageFooter names the turn's tokens by kind", () => {
    assert.equal(
      usageFooter(3, { input: 1200, output: 45, cacheRead: 3000, cacheWrite: 0 }),
      '3 steps · tokens: input 1,200, output 45, cache read 3,000, cache write 0',
    );
    assert.match(usageFooter(1, { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }), /^1 step · /);
  });

  it('withoutFooter removes only our footer from an earlier agent answer', () => {
    const footer = `${FOOTER_SEPARATOR}${usageFooter(2, { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 })}\n`;
    assert.equal(withoutFooter(`The answer.${footer}`), 'The answer.');
    assert.equal(withoutFooter('A table:\n\n---\nnot ours'), 'A table:\n\n---\nnot ours');
    assert.equal(withoutFooter('plain'), 'plain');
  });
});
