// Agent definitions (.github/agents/*.agent.md, .claude/agents/*.md): the front matter the peers write, and the
// hostile ones a repository could hold (a huge file, tools outside the role, a pricier model, a name with a path).
import * as assert from 'node:assert/strict';
import {
  AGENT_DEFINITION_CAP,
  applyDefinition,
  definitionInstructions,
  isAgentDefinitionPath,
  parseAgentDefinition,
  type AgentDefinition,
} from '../../../src/agent';

const EXPLORE_TOOLS = ['read_file', 'list_directory', 'find_files', 'search_text', 'get_diagnostics'];
const EDIT_TOOLS = [...EXPLORE_TOOLS, 'propose_edit', 'create_file', 'delete_file', 'run_command'];

function parsed(text: string, path = '.claude/agents/reviewer.md', cut = false): AgentDefinition {
  const r = parseAgentDefinition(text, path, cut);
  assert.ok('definition' in r, JSON.stringify(r));
  return r.definition;
}

describe('agent definitions', () => {
  it('finds the peers’ files only: .github/agents/*.agent.md and .claude/agents/*.md, not deeper', () => {
    assert.equal(isAgentDefinitionPath('.github/agents/reviewer.agent.md'), true);
    assert.equal(isAgentDefinitionPath('.claude/agents/reviewer.md'), true);
    assert.equal(isAgentDefinitionPath('.github/agents/reviewer.md'), false);
    assert.equal(isAgentDefinitionPath('.claude/agents/nested/reviewer.md'), false);
    assert.equal(isAgentDefinitionPath('notes/agents/reviewer.md'), false);
    assert.equal(isAgentDefinitionPath('.claude/agents/.md'), false);
  });

  it('reads Claude Code’s front matter (comma list of tools) and VS Code’s (a YAML list), the body as instructions', () => {
    const claude = parsed(
      '---\nname: code-reviewer\ndescription: Reviews code for bugs\ntools: Read, Grep, Glob\nmodel: claude-demo-haiku\n---\nYou review code.\n',
    );
    assert.deepEqual(
      [claude.name, claude.description, claude.tools, claude.model, claude.body],
      ['code-reviewer', 'Reviews code for bugs', ['Read', 'Grep', 'Glob'], 'claude-demo-haiku', 'You review code.'],
    );
    const vscode = parsed(
      "---\ndescription: 'Plans work'\ntools: ['search', 'codebase']\n---\n# Planner\nPlan first.",
      '.github/agents/planner.agent.md',
    );
    assert.equal(vscode.name, 'planner', 'the file name when the front matter names none');
    assert.deepEqual(vscode.tools, ['search', 'codebase']);
    const block = parsed('---\nname: lister\ntools:\n  - read\n  - ls\n---\nList.');
    assert.deepEqual(block.tools, ['read', 'ls']);
    assert.match(
      definitionInstructions(claude),
      /^Agent definition "code-reviewer" from \.claude\/agents\/reviewer\.md[\s\S]*You review code\.$/,
    );
  });

  it('a name with a path, spaces or markup is refused (the file is not used)', () => {
    for (const name of ['../../etc/passwd', 'a/b', 'two words', '<img src=x>', '..', `x${'y'.repeat(80)}`]) {
      const r = parseAgentDefinition(`---\nname: ${name}\n---\nbody`, '.claude/agents/x.md');
      assert.ok('problem' in r, name);
      assert.match(r.problem, /not a plain name/);
    }
    const proto = parsed('---\n__proto__: evil\nconstructor: evil\nname: ok\n---\nbody');
    assert.equal(proto.name, 'ok');
    assert.equal(({} as Record<string, unknown>).evil, undefined);
  });

  it('a huge file: what was read is used and the card says it was cut; a huge description is one capped line', () => {
    const text = `---\nname: big\ndescription: ${'d'.repeat(5000)}\n---\n${'x'.repeat(AGENT_DEFINITION_CAP)}`;
    const def = parsed(text.slice(0, AGENT_DEFINITION_CAP), '.claude/agents/big.md', true);
    assert.ok(def.description.length <= 300);
    assert.deepEqual(def.notes, ['only its first 8 KB were read']);
    assert.ok(def.body.length < AGENT_DEFINITION_CAP);
  });

  it('tools outside the role are not given (an explorer asking for Bash, Edit, run_command), with a note', () => {
    const def = parsed('---\nname: sneaky\ntools: Read, Bash, Edit, run_command, mcp/github/create_issue\n---\nDo it.');
    const applied = applyDefinition(def, { role: 'explore', roleTools: EXPLORE_TOOLS, parentModel: 'parent-model' });
    assert.deepEqual([...applied.tools].sort(), ['list_directory', 'read_file']);
    assert.deepEqual(applied.notes, [
      'it asks for "Bash", "Edit", "run_command", outside what an explore sub-agent may use: not given',
      'its tools "mcp/github/create_issue" are not known here: ignored',
    ]);
    // An edit child gets them, but still only those named (a definition narrows, never widens).
    const edit = applyDefinition(def, { role: 'edit', roleTools: EDIT_TOOLS, parentModel: 'parent-model' });
    assert.deepEqual([...edit.tools].sort(), [
      'create_file',
      'delete_file',
      'list_directory',
      'propose_edit',
      'read_file',
      'run_command',
    ]);
    // No tools line: the role's tools.
    const all = applyDefinition(parsed('---\nname: plain\n---\nLook.'), {
      role: 'explore',
      roleTools: EXPLORE_TOOLS,
      parentModel: 'p',
    });
    assert.deepEqual([...all.tools], EXPLORE_TOOLS);
  });

  it('model: expensive is ignored with a visible note; the user’s sub-agent model or the parent’s is used', () => {
    const pricey = parsed('---\nname: pricey\nmodel: claude-opus-expensive\n---\nThink hard.');
    const applied = applyDefinition(pricey, {
      role: 'explore',
      roleTools: EXPLORE_TOOLS,
      userModel: 'small-model',
      parentModel: 'parent-model',
    });
    assert.equal(applied.model, 'small-model');
    assert.match(
      applied.notes.join('\n'),
      /asks for the model "claude-opus-expensive", which the user did not allow: it runs on small-model/,
    );
    // Equal to the parent's model (allowed by the user for this conversation): used.
    const parentOne = parsed('---\nname: same\nmodel: parent-model\n---\nx');
    assert.equal(
      applyDefinition(parentOne, {
        role: 'explore',
        roleTools: EXPLORE_TOOLS,
        userModel: 'small-model',
        parentModel: 'parent-model',
      }).model,
      'parent-model',
    );
    const userOne = parsed('---\nname: small\nmodel: small-model\n---\nx');
    const u = applyDefinition(userOne, {
      role: 'explore',
      roleTools: EXPLORE_TOOLS,
      userModel: 'small-model',
      parentModel: 'p',
    });
    assert.deepEqual([u.model, u.notes], ['small-model', []]);
  });
});
