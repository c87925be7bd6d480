// Bridged tools on demand: with 40 bridged tools the request carries one small more_tools definition instead of
// all forty; the model lists them, enables one, and calls it in its next step (through the policy: 'external'
// tools ask); the set stays enabled for the conversation; a few small tools are offered directly.
import * as assert from 'node:assert/strict';
import {
  definitionTokens,
  estimateTokens,
  MORE_TOOLS_NAME,
  runAgentTurn,
  ToolCatalog,
  type Tool,
} from '../../../src/agent';
import { fakeWorkspace, recordingApprover } from './fakeTools';
import { goTurnOptions } from './turnOptions';
import { lastToolResults, scriptedGatewayPerTest, text, toolUse } from './scriptedGateway';

/** A bridged tool about the size of Copilot Chat's (about 165 tokens of definition each). */
function bridgedTool(i: number, calls: string[] = []): Tool<never> {
  const tool: Tool = {
    name: `ext_tool_${i}`,
    description: `Extension tool ${i}: ${'does something useful with the workspace and reports the outcome; '.repeat(4)}`,
    approvalClass: 'external',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for, in plain words, as specific as possible.' },
        paths: { type: 'array', items: { type: 'string' }, description: 'Files or folders to limit the search to.' },
        maxResults: { type: 'number', description: 'The most results to return.' },
      },
      required: ['query'],
    },
    target: () => ({ summary: `ext ${i}` }),
    invoke: async (input) => {
      calls.push(`ext_tool_${i}:${JSON.stringify(input)}`);
      return { content: `tool ${i} ran` };
    },
  };
  return tool as unknown as Tool<never>;
}

describe('bridged tools on demand (ToolCatalog)', () => {
  const startGateway = scriptedGatewayPerTest();

  it('40 bridged tools cost one small definition; listed, enabled and called in three steps; still enabled next turn', async () => {
    const calls: string[] = [];
    const bridged = Array.from({ length: 40 }, (_v, i) => bridgedTool(i, calls));
    const ws = fakeWorkspace({ '/ws/a.txt': 'A' });
    const enabled = new Set<string>();
    const catalog = new ToolCatalog(ws.tools, bridged, enabled);
    const gw = await startGateway((req, n) => {
      if (n === 1) return { kind: 'message', blocks: [toolUse('m1', MORE_TOOLS_NAME, {})] };
      if (n === 2) return { kind: 'message', blocks: [toolUse('m2', MORE_TOOLS_NAME, { enable: ['ext_tool_7'] })] };
      if (n === 3) return { kind: 'message', blocks: [toolUse('e1', 'ext_tool_7', { query: 'x' })] };
      return { kind: 'message', blocks: [text(`done: ${String(lastToolResults(req)[0]?.content)}`)] };
    });
    const approver = recordingApprover();
    const result = await runAgentTurn(
      goTurnOptions(gw, () => catalog.tools(), { approve: (r) => approver.approve(r) }),
    );
    assert.equal(result.reason, 'end_turn');
    const names = (i: number) => gw.bodies[i].tools?.map((t) => t.name) ?? [];
    assert.deepEqual(names(0), ['read_file', 'write_file', 'run_command', MORE_TOOLS_NAME]);
    assert.deepEqual(names(2), ['read_file', 'write_file', 'run_command', 'ext_tool_7', MORE_TOOLS_NAME]);
    const listing = String(lastToolResults(gw.bodies[1])[0].content);
    assert.match(listing, /^40 more tools:\n- ext_tool_0: Extension tool 0/);
    assert.deepEqual(calls, ['ext_tool_7:{"query":"x"}']);
    assert.deepEqual(
      approver.asked.map((a) => a.toolName),
      ['ext_tool_7'],
      'a bridged tool still asks; more_tools itself does not',
    );
    assert.deepEqual([...enabled], ['ext_tool_7'], 'kept for the conversation');
    const fixedToday = estimateTokens({ tools: [...ws.tools, ...bridged].map(def) });
    const fixedNow = estimateTokens({ tools: new ToolCatalog(ws.tools, bridged).tools().map(def) });
    assert.ok(definitionTokens(bridged) > 5000, `40 bridged tools: ${definitionTokens(bridged)} tokens`);
    assert.ok(fixedNow - estimateTokens({ tools: ws.tools.map(def) }) < 150, 'more_tools costs little');
    assert.ok(fixedNow < fixedToday / 10);
  });

  it('unknown names are refused with the way to list them; a few small tools are offered directly', async () => {
    const small = [bridgedTool(1)];
    const catalog = new ToolCatalog([], small);
    assert.deepEqual(
      catalog.tools().map((t) => t.name),
      ['ext_tool_1'],
    );
    const big = new ToolCatalog(
      [],
      Array.from({ length: 5 }, (_v, i) => bridgedTool(i)),
    );
    const more = big.tools().find((t) => t.name === MORE_TOOLS_NAME)!;
    const ctx = { signal: new AbortController().signal, toolUseId: 't', progress: () => undefined };
    const r = await more.invoke({ enable: ['nope'] } as never, ctx);
    assert.equal(r.isError, true);
    assert.match(String(r.content), /No such tool: nope\. Call more_tools with \{\} to list them\./);
    await more.invoke({ enable: ['ext_tool_0', 'ext_tool_1', 'ext_tool_2', 'ext_tool_3', 'ext_tool_4'] } as never, ctx);
    assert.equal(
      big.tools().some((t) => t.name === MORE_TOOLS_NAME),
      false,
      'gone once every tool is enabled',
    );
  });
});

function def(t: Tool<never>) {
  return { name: t.name, description: t.description, input_schema: t.inputSchema };
}
