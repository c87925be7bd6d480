// What users act on, in Chinese: the agent's approval prompts and refusals, its turn-end sentence, the chat's error
// card and the image tool's cost confirmation, with a Localizer over the real l10n/bundle.l10n.zh-cn.json (as
// vscode.l10n is in a zh-cn window). The model keeps reading English: the policy's `reason` and the tool result.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decide, type AgentEvent, type Tool } from '../../src/agent';
import { runToolCalls } from '../../src/agent/toolRunner';
import { endMessage } from '../../src/agent/usage';
import { AgentEventMapper } from '../../src/chat/agent/agentEvents';
import { createConversation, summarize } from '../../src/chat/session/conversation';
import { toErrorCard } from '../../src/chat/session/errorCard';
import { adviseOnError } from '../../src/gateway';
import { GatewayError } from '../../src/gateway/errors/errors';
import { FOOTER_SEPARATOR, usageFooter, withoutFooter } from '../../src/lm/agentText';
import { imageConfirmation } from '../../src/lm/toolText';
import { english, type Localizer } from '../../src/shared/l10n';
import { webviewStrings } from '../../src/shared/webviewStrings';
import type { AgentTurnInfo, ChatMessage, HostToWebviewMessage } from '../../src/shared/protocol/chat';

const zhBundle = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8'),
) as Record<string, string>;
/** vscode.l10n in a zh-cn window: the bundle's translation, the English key when it has none. */
const zh: Localizer = { t: (message, ...args) => english.t(zhBundle[message] ?? message, ...args) };
const HAN = /[\u4e00-\u9fff]/;
const WS = '/ws';

describe('l10n: what users act on, in Simplified Chinese', () => {
  it('approval reasons: shown in Chinese, while the model is told the English reason', () => {
    const cases = [
      {
        facts: { toolName: 'propose_edit', approvalClass: 'write' as const, target: { paths: [`${WS}/README.md`] } },
        zh: '写入操作需要确认',
      },
      {
        facts: { toolName: 'read_file', approvalClass: 'read' as const, target: { paths: ['/etc/hosts'] } },
        zh: '/etc/hosts 位于工作区文件夹之外',
      },
      {
        facts: {
          toolName: 'run_command',
          approvalClass: 'command' as const,
          target: { command: 'npm test; rm -rf /' },
        },
        zh: '会串联第二条命令',
      },
      {
        facts: { toolName: 'run_command', approvalClass: 'command' as const, target: { command: 'npm test' } },
        zh: '不在允许列表中',
      },
      {
        facts: {
          toolName: 'propose_edit',
          approvalClass: 'write' as const,
          target: { paths: [`${WS}/.vscode/settings.json`] },
        },
        zh: 'VS Code 工作区配置',
      },
    ];
    for (const c of cases) {
      const verdict = decide(c.facts, { workspaceFolders: [WS], l10n: zh });
      assert.equal(verdict.decision, 'ask', c.facts.toolName);
      assert.ok(verdict.shown?.includes(c.zh), `${verdict.rule}: ${verdict.shown}`);
      assert.ok(!HAN.test(verdict.reason), `the model's reason stays English: ${verdict.reason}`);
      assert.equal(verdict.reason, decide(c.facts, { workspaceFolders: [WS] }).reason);
    }
  });

  it('a refusal: the card says it in Chinese, the tool result for the model stays English', async () => {
    const events: AgentEvent[] = [];
    const tool: Tool<Record<string, unknown>> = {
      name: 'read_file',
      description: 'read',
      inputSchema: { type: 'object' },
      approvalClass: 'read',
      target: () => ({ paths: [`${WS}/.env`] }),
      invoke: async () => ({ content: 'secret' }),
    };
    const outcome = await runToolCalls([{ block: { type: 'tool_use', id: 'tu1', name: 'read_file', input: {} } }], 1, {
      tools: new Map([['read_file', tool as Tool<never>]]),
      policy: { workspaceFolders: [WS], l10n: zh },
      approve: async () => ({ approved: true }),
      emit: (e) => events.push(e),
      signal: new AbortController().signal,
    });
    const result = JSON.stringify(outcome.results[0].content);
    assert.match(result, /Refused: \.env matches the secrets ignore list/);
    assert.ok(!HAN.test(result), result);
    const message: ChatMessage & { agent: AgentTurnInfo } = {
      id: 'a1',
      role: 'assistant',
      text: '',
      status: 'streaming',
      createdAt: 0,
      agent: { turnId: 't1', tools: [], steps: [] },
    };
    const posted: HostToWebviewMessage[] = [];
    const mapper = new AgentEventMapper(
      'c1',
      message,
      { post: (p) => posted.push(p), text: () => undefined, now: () => 0 },
      zh,
    );
    for (const e of events) mapper.handle(e);
    assert.match(message.agent.tools[0].note ?? '', /\.env 匹配机密忽略列表/);
  });

  it("the approval prompt of a command and the user's denial, in Chinese", () => {
    const message: ChatMessage & { agent: AgentTurnInfo } = {
      id: 'a1',
      role: 'assistant',
      text: '',
      status: 'streaming',
      createdAt: 0,
      agent: { turnId: 't1', tools: [], steps: [] },
    };
    const mapper = new AgentEventMapper(
      'c1',
      message,
      { post: () => undefined, text: () => undefined, now: () => 0 },
      zh,
    );
    const verdict = decide(
      { toolName: 'run_command', approvalClass: 'command', target: { command: 'npm test' } },
      { workspaceFolders: [WS], l10n: zh },
    );
    mapper.asking({
      toolUseId: 'tu1',
      toolName: 'run_command',
      approvalClass: 'command',
      input: {},
      target: { command: 'npm test' },
      verdict,
    });
    assert.equal(message.agent.tools[0].ask?.reason, '该命令不在允许列表中。');
    assert.equal(message.agent.tools[0].ask?.command, 'npm test', 'the exact command, untranslated');
    mapper.handle({ type: 'tool_denied', step: 1, toolUseId: 'tu1', reason: 'the user denied this call' });
    assert.equal(message.agent.tools[0].note, '已拒绝：你拒绝了此调用。');
  });

  it('why a turn ended, in Chinese (an unknown outcome says it was not sent again)', () => {
    const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    assert.match(
      endMessage('outcome_unknown', { steps: 2, usage, error: new Error('socket closed'), l10n: zh }),
      /^第 2 步被中断（socket closed）。.*没有重新发送/,
    );
    assert.match(endMessage('step_budget', { steps: 25, usage, l10n: zh }), /25 步后停止/);
    assert.equal(endMessage('stopped', { steps: 1, usage }), 'Stopped.');
  });

  it('the chat error card of a 401: title and advice in Chinese, no English left', () => {
    const error = new GatewayError({ kind: 'auth', route: 'POST /v1/messages', message: 'x', status: 401 });
    const card = toErrorCard(error, (e) => adviseOnError(e, { surface: 'chat', l10n: zh }), zh);
    assert.equal(card.title, '网关拒绝了此 API 密钥（401）。');
    assert.match(card.detail, /密钥不完整、已被吊销或有误/);
    assert.ok(!/[A-Za-z]{4,} [a-z]{3,}/.test(card.detail.replace(/Copy Support Info|API|ID/g, '')), card.detail);
    assert.deepEqual(card.actions.includes('replaceKey'), true);
    assert.equal(
      toErrorCard(new Error('boom'), () => ({ title: '', detail: '', actions: [] }), zh).title,
      '出现了问题',
    );
  });

  it('a conversation not yet titled is listed as a new chat in Chinese; a titled one keeps its own title', () => {
    const fresh = createConversation('c1', 0);
    assert.equal(summarize(fresh, zh).title, '新建聊天');
    assert.equal(summarize(fresh).title, 'New chat');
    assert.equal(
      summarize({ ...fresh, title: 'New chat', titled: true }, zh).title,
      'New chat',
      'a user question that reads "New chat" stays as asked',
    );
  });

  it("@gateway's token footer in Chinese, and a later turn still leaves it out of what the model reads", () => {
    const footer = usageFooter(2, { input: 1200, output: 45, cacheRead: 0, cacheWrite: 7 }, zh);
    assert.equal(footer, '2 步 · token：输入 1,200，输出 45，缓存读取 0，缓存写入 7');
    assert.equal(withoutFooter(`答案。${FOOTER_SEPARATOR}${footer}\n`), '答案。');
    assert.equal(withoutFooter('A table:\n\n---\nnot ours'), 'A table:\n\n---\nnot ours');
  });

  it("the image tool's cost confirmation names every charge factor in Chinese", () => {
    const { title, message } = imageConfirmation(
      {
        input: { kind: 'generation', prompt: 'a lighthouse', n: 2, references: [] },
        size: '2048x2048',
        defaultSize: '1024x1024',
        quality: 'high',
        references: ['ref.png'],
      },
      zh,
    );
    assert.equal(title, '通过网关生成 2 张图像吗（费用记入你的密钥）？');
    for (const part of ['此请求的费用高于默认请求', '2 张图像', '尺寸 2048x2048', 'high', '参考图像', '只发送一次'])
      assert.ok(message.includes(part), `${part} in ${message}`);
    assert.match(
      imageConfirmation({
        input: { kind: 'generation', prompt: 'p', references: [] },
        size: '1024x1024',
        defaultSize: '1024x1024',
        references: [],
      }).title,
      /^Generate an image/,
    );
  });

  it('the Ask/Agent mode selector, and every other translated string, has Chinese words (none left as English)', () => {
    const strings = webviewStrings(zh);
    assert.match(strings['chat.modeAsk'], HAN, strings['chat.modeAsk']);
    assert.match(strings['chat.modeAgent'], HAN, strings['chat.modeAgent']);
    // A translation may keep names (HTTP, API, token) but not be English words only.
    const english = Object.entries(zhBundle).filter(
      ([, v]) => !HAN.test(v) && /[A-Za-z]{3,}/.test(v.replace(/HTTP/g, '')),
    );
    assert.deepEqual(english, []);
  });
});
