// The @gateway chat participant: /image (async image task saved into the workspace), /models, and plain
// questions answered by a gateway chat model, streamed as markdown.
import * as path from 'path';
import * as vscode from 'vscode';
import { Commands, Views } from '../../shared/commands';
import type { ImageJobs, Services } from '../../platform/services';
import { describeForLanguageModel } from '../lmErrors';
import { groupByKind } from '../../catalog/classify';
import { imageCostAdvice, imageResultMarkdown, imageUsage, modelsMarkdown, noKeyMarkdown } from '../participantText';
import { buildMessagesRequest, imagePartsOfReferences, type NeutralMessage } from '../requestMapping';
import { StreamPartMapper } from '../streamMapping';
import { ChatMarkdownSanitizer } from '../chatMarkdown';
import { streamWithCancellation, waitMessage } from '../streaming';
import { CachingMemory } from '../../agent';
import { snapshotWorkspace } from '../../agentHost/workspaceContext';
import { agentUnavailableReason, offeredTools, runGatewayAgent, untrustedMarkdown } from './gatewayAgent';
import type { MessageParam } from '../../gateway/types';
import { withoutFooter } from '../agentText';

/** Models and keys whose gateway rejected prompt caching (cache_control), for this window's @gateway agent turns. */
const cachingMemory = new CachingMemory();

type Handler = (
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
) => Promise<vscode.ChatResult>;

async function errorResult(services: Services, error: unknown): Promise<vscode.ChatResult> {
  if (error instanceof vscode.CancellationError) return {};
  const secret = await services.keys.activeSecret().catch(() => undefined);
  const { message } = describeForLanguageModel(error, {
    baseUrl: services.config.current.baseUrl,
    secret,
    l10n: vscode.l10n,
  });
  return { errorDetails: { message } };
}

async function handleImage(
  images: ImageJobs,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const prompt = request.prompt.trim();
  if (!prompt) {
    stream.markdown(imageUsage(vscode.l10n));
    return {};
  }
  stream.progress(vscode.l10n.t('Starting an image task on the gateway…'));
  const uris = await images.generate(
    { prompt },
    {
      token,
      onProgress: (message, percent) =>
        stream.progress(percent === undefined ? message : `${message} (${Math.round(percent)}%)`),
    },
  );
  if (token.isCancellationRequested) return {};
  stream.markdown(
    imageResultMarkdown(
      uris.map((u) => path.basename(u.fsPath)),
      vscode.l10n,
    ) + '\n\n',
  );
  for (const uri of uris) {
    stream.markdown('- ');
    stream.anchor(uri, path.basename(uri.fsPath));
    stream.markdown('\n');
    stream.reference(uri);
  }
  stream.markdown(`\n${imageCostAdvice(vscode.l10n)}\n`);
  stream.button({ command: Commands.openImagePanel, title: vscode.l10n.t('Open Image Panel') });
  return { metadata: { command: 'image', files: uris.map((u) => u.toString()) } };
}

async function handleModels(services: Services, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
  stream.progress(vscode.l10n.t('Reading the model list of your key…'));
  const [key, snapshot] = [await services.keys.active(), await services.catalog.get()];
  if (!key || !snapshot) {
    stream.markdown(noKeyMarkdown(vscode.l10n));
    stream.button({ command: Commands.setApiKey, title: vscode.l10n.t('Set API Key') });
    return {};
  }
  stream.markdown(
    modelsMarkdown(
      {
        keyName: key.name,
        baseUrl: snapshot.baseUrl,
        fetchedAt: snapshot.fetchedAt,
        chat: snapshot.models.filter((m) => m.kind === 'chat').map((m) => m.id),
        image: snapshot.models.filter((m) => m.kind === 'image').map((m) => m.id),
        other: groupByKind(snapshot.models).other.map((g) => ({ kind: g.kind, ids: g.models.map((m) => m.id) })),
      },
      vscode.l10n,
    ),
  );
  stream.button({ command: Commands.refreshModels, title: vscode.l10n.t('Refresh Models') });
  return { metadata: { command: 'models' } };
}

/** Earlier plain turns of this conversation (not /image or /models) as user/assistant messages. */
function historyMessages(context: vscode.ChatContext): NeutralMessage[] {
  const messages: NeutralMessage[] = [];
  for (const turn of context.history) {
    if (turn.command) continue;
    if (turn instanceof vscode.ChatRequestTurn) {
      messages.push({ role: 'user', parts: [{ kind: 'text', text: turn.prompt }] });
    } else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response
        .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
        .join('');
      // An agent answer's footer (steps and tokens) is ours, not the model's: it is not sent back.
      const said =
        (turn.result.metadata as { command?: unknown } | undefined)?.command === 'agent' ? withoutFooter(text) : text;
      if (said) messages.push({ role: 'assistant', parts: [{ kind: 'text', text: said }] });
    }
  }
  return messages;
}

async function chatModelId(services: Services, request: vscode.ChatRequest): Promise<string | undefined> {
  // The model picked in VS Code's chat is used when it is one of ours; otherwise the configured default.
  const picked = (request as { model?: vscode.LanguageModelChat }).model;
  if (picked?.vendor === Views.lmVendor) return picked.id;
  const configured = services.config.current.chat.defaultModel;
  if (configured) return configured;
  return (await services.catalog.chatModels())[0]?.id;
}

async function handleChat(
  services: Services,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const client = await services.gateway.client();
  const model = client ? await chatModelId(services, request) : undefined;
  if (!client || !model) {
    stream.markdown(
      client
        ? vscode.l10n.t('Your key lists no chat model. Run `/models` to see what it may call.')
        : noKeyMarkdown(vscode.l10n),
    );
    if (!client) stream.button({ command: Commands.setApiKey, title: vscode.l10n.t('Set API Key') });
    return {};
  }
  const messages: NeutralMessage[] = [
    ...historyMessages(context),
    {
      role: 'user',
      parts: [...(await imagePartsOfReferences(request.references)), { kind: 'text', text: request.prompt }],
    },
  ];
  const { chat } = services.config.current;
  const body = buildMessagesRequest({ model, messages, maxTokens: chat.maxTokens, systemPrompt: chat.systemPrompt });
  // Tools attached with # make the question an agent turn (agentText.offeredToolNames); without them it stays one request.
  if (request.toolReferences?.length > 0) {
    const unavailable = agentUnavailableReason();
    const tools = unavailable ? [] : offeredTools(request);
    if (tools.length > 0) {
      const snapshot = await snapshotWorkspace(services.context);
      const key = await services.keys.active();
      return runGatewayAgent(
        {
          client,
          model,
          maxTokens: body.max_tokens,
          system: typeof body.system === 'string' ? body.system : undefined,
          messages: body.messages as MessageParam[],
          policy: snapshot.policy,
          maxSteps: snapshot.settings.maxSteps,
          caching: key
            ? { keyId: key.fingerprint, memory: cachingMemory }
            : { enabled: false, keyId: '', memory: cachingMemory },
          redact: services.secrets.redactKnown,
          describeError: async (error) =>
            (await errorResult(services, error)).errorDetails?.message ?? vscode.l10n.t('the request failed'),
        },
        request,
        tools,
        stream,
        token,
      );
    }
    stream.progress(
      unavailable ?? vscode.l10n.t('None of the attached tools can be called here: answering without tools.'),
    );
  }
  const mapper = new StreamPartMapper();
  // Model output is untrusted: its links and images pass the link policy before VS Code's chat renders them.
  const safe = new ChatMarkdownSanitizer();
  const write = (markdown: string) => {
    if (markdown) stream.markdown(untrustedMarkdown(markdown));
  };
  // No progress line before the answer: VS Code (1.139) turns progress lines into a "Completed N steps" header, and
  // a plain question has no steps (its own spinner shows until the first words arrive). Waits still say so.
  try {
    await streamWithCancellation(
      client,
      body,
      token,
      (event) => {
        for (const part of mapper.push(event)) if (part.kind === 'text') write(safe.push(part.text));
      },
      (notice) => {
        if (notice.ms > 0) stream.progress(waitMessage(notice, vscode.l10n));
      },
    );
  } finally {
    write(safe.end());
  }
  if (mapper.stopReason === 'max_tokens')
    write(
      `\n\n_${vscode.l10n.t('The answer was cut off at the max_tokens limit (setting `modelGateway.chat.maxTokens`).')}_`,
    );
  return { metadata: { command: 'chat', model } };
}

export function createParticipantHandler(services: Services, images: ImageJobs): Handler {
  return async (request, context, stream, token) => {
    try {
      if (request.command === 'image') return await handleImage(images, request, stream, token);
      if (request.command === 'models') return await handleModels(services, stream);
      return await handleChat(services, request, context, stream, token);
    } catch (error) {
      if (token.isCancellationRequested) return {};
      services.log.warn(`@gateway request failed: ${error instanceof Error ? error.message : String(error)}`);
      return errorResult(services, error);
    }
  };
}

/** Registers @gateway when the running VS Code has the chat participant API (it does from 1.90). */
export function registerParticipant(services: Services, images: ImageJobs): vscode.Disposable {
  const chat = (vscode as { chat?: { createChatParticipant?: unknown } }).chat;
  if (typeof chat?.createChatParticipant !== 'function') return new vscode.Disposable(() => undefined);
  const participant = vscode.chat.createChatParticipant(
    Views.chatParticipant,
    createParticipantHandler(services, images),
  );
  const unavailable = agentUnavailableReason();
  services.log.info(
    unavailable
      ? `@gateway agent (# tools) unavailable: ${unavailable}`
      : '@gateway agent available: tools attached with # run as an agent turn.',
  );
  participant.iconPath = new vscode.ThemeIcon('sparkle');
  return participant;
}
