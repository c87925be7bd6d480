// The model provider's response path (vendor 'model-gateway'): a request of VS Code's chat mapped to the
// gateway, its stream mapped back, errors as LanguageModelErrors, and the token count. It lives in the
// native-chat bundle (src/lm/host/chunk.ts, dist/features/lm.js), loaded with the first request or token count;
// the provider registered at activation (provider.ts) only lists the models.
import * as vscode from 'vscode';
import type { GatewayClient } from '../../gateway/types';
import type { WaitNotice } from '../../gateway/retry';
import type { Services } from '../../platform/services';
import type {
  LanguageModelChatInformation,
  LanguageModelChatRequestMessage,
  LanguageModelResponsePart,
  ProvideLanguageModelChatResponseOptions,
} from './lmApi';
import { languageModelError } from './lmApi';
import { describeForLanguageModel } from '../lmErrors';
import { buildMessagesRequest, messageFromVsCode } from '../requestMapping';
import { StreamPartMapper, type OutputPart } from '../streamMapping';
import { tokenCountsOf } from '../../gateway/pricing';
import { usageUnreported } from '../../gateway/usageReport';
import { estimateTokens } from '../../shared/tokenEstimate';
import { estimateMessageTokens, type ModelCalibrations } from '../tokens';
import { streamWithCancellation, waitMessage } from '../streaming';

function toResponsePart(part: OutputPart): LanguageModelResponsePart {
  return part.kind === 'text'
    ? new vscode.LanguageModelTextPart(part.text)
    : new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
}

/** LanguageModelChatProvider.provideLanguageModelChatResponse. */
export async function provideChatResponse(
  services: Services,
  calibrations: ModelCalibrations,
  model: LanguageModelChatInformation,
  messages: readonly LanguageModelChatRequestMessage[],
  options: ProvideLanguageModelChatResponseOptions,
  progress: vscode.Progress<LanguageModelResponsePart>,
  token: vscode.CancellationToken,
): Promise<void> {
  const client = await clientOrThrow(services);
  const neutral = messages.map((m) => messageFromVsCode({ role: m.role, content: m.content }));
  const request = buildMessagesRequest({
    model: model.id,
    messages: neutral,
    maxTokens: model.maxOutputTokens,
    tools: options.tools,
    toolMode: options.toolMode,
    modelOptions: options.modelOptions,
  });
  const mapper = new StreamPartMapper();
  const wait = new WaitProgress();
  try {
    const answer = await streamWithCancellation(
      client,
      request,
      token,
      (event) => {
        for (const part of mapper.push(event)) progress.report(toResponsePart(part));
      },
      (notice) => wait.show(notice),
    );
    // The input the gateway counted for this request (its messages, system prompt and tools, each estimated as
    // VS Code is told) calibrates this model's next token counts.
    if (!usageUnreported(answer.usage, answer.content)) {
      const t = tokenCountsOf(answer.usage);
      const estimate =
        neutral.reduce((sum, m) => sum + estimateMessageTokens(m), 0) +
        estimateTokens({ system: request.system, tools: request.tools });
      calibrations.calibrate(model.id, t.input + t.cacheRead + t.cacheWrite, estimate);
    }
  } catch (error) {
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    throw await toLanguageModelError(services, error, client);
  } finally {
    wait.end();
  }
}

/** LanguageModelChatProvider.provideTokenCount (an estimate: the gateway has no token count route). */
export function countTokens(
  calibrations: ModelCalibrations,
  modelId: string,
  text: string | LanguageModelChatRequestMessage,
): number {
  return calibrations.countTokens(
    modelId,
    typeof text === 'string' ? text : messageFromVsCode({ role: text.role, content: text.content }),
  );
}

async function clientOrThrow(services: Services): Promise<GatewayClient> {
  const client = await services.gateway.client();
  if (client) return client;
  const { baseUrlProblem } = services.config.current;
  throw languageModelError(
    'NoPermissions',
    baseUrlProblem
      ? vscode.l10n.t('Model Gateway cannot be used: {0}', baseUrlProblem)
      : vscode.l10n.t('Model Gateway has no API key. Set one with "Model Gateway: Set API Key".'),
  );
}

async function toLanguageModelError(services: Services, error: unknown, client: GatewayClient): Promise<Error> {
  const secret = await services.keys.activeSecret().catch(() => undefined);
  const { code, message } = describeForLanguageModel(error, { baseUrl: client.baseUrl, secret });
  services.log.warn(`Native chat request failed (${code}): ${message}`);
  // The chat shows the error to the user: in the display language (the log above stays English).
  return languageModelError(
    code,
    describeForLanguageModel(error, { baseUrl: client.baseUrl, secret, l10n: vscode.l10n }).message,
  );
}

/**
 * A wait before the request goes out (429 Retry-After) as a status-bar progress with a countdown: the
 * response stream of a model provider carries only the answer, and the chat's stop button cancels.
 */
class WaitProgress {
  private finish: (() => void) | undefined;

  show(notice: WaitNotice): void {
    this.end();
    if (notice.ms <= 0) return;
    // Settled independently of when withProgress runs its task, so a quick end() never leaves it open.
    let settle: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (settle = resolve));
    this.finish = settle;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Model Gateway' },
      (progress) => {
        const tick = (): void =>
          progress.report({ message: waitMessage({ ...notice, ms: notice.until - Date.now() }, vscode.l10n) });
        tick();
        const timer = setInterval(tick, 1000);
        return done.finally(() => clearInterval(timer));
      },
    );
  }

  end(): void {
    this.finish?.();
    this.finish = undefined;
  }
}
