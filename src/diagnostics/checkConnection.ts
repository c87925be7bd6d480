// The steps of Check Connection, without UI: base URL, network, reachability, key, models, Messages
// route permission (a 1-token billable request only when allowed) and the version header.
import { adviseOnError } from '../gateway';
import { isGatewayError } from '../gateway/errors';
import type { GatewayClient, ModelInfo } from '../gateway/types';
import { splitByKind } from '../catalog/classify';
import { isListMissing, probeMessagesRoute } from '../catalog/listing';
import { endpointUrls, type Config } from '../shared/config';
import type { KeyInfo } from '../platform/services';
import type { ConnectionReport, ReportStep } from './report';

export interface CheckInputs {
  config: Config;
  key: KeyInfo | undefined;
  client: GatewayClient | undefined;
  proxyDescription: string;
  /** Asked only when the models step passed; true runs the 1-token billable request. */
  allowBillable(model: string): Promise<boolean>;
  onStep?(step: ReportStep): void;
  signal?: AbortSignal;
}

export async function runConnectionCheck(inputs: CheckInputs): Promise<ConnectionReport> {
  const { config } = inputs;
  const report: ConnectionReport = { startedAt: new Date().toISOString(), baseUrl: config.baseUrl, steps: [], ok: true };
  const add = (step: ReportStep, error?: unknown): void => {
    report.steps.push(step);
    if (step.status === 'fail') {
      report.ok = false;
      report.firstError ??= error;
    }
    inputs.onStep?.(step);
  };
  add(baseUrlStep(config));
  add({ title: 'Network', status: 'ok', lines: [inputs.proxyDescription] });
  if (!config.baseUrl) return report;
  if (!inputs.key || !inputs.client) {
    add({ title: 'API key', status: 'fail', lines: ['No API key is stored. Run Model Gateway: Set API Key (a dedicated key for this device, from your gateway console).'] });
    return report;
  }
  const models = await modelsSteps(inputs.client, inputs.key, config, add, inputs.signal);
  if (!models) return report;
  await messagesSteps(inputs, models, add);
  return report;
}

function baseUrlStep(config: Config): ReportStep {
  if (!config.baseUrl) {
    return { title: 'Base URL', status: 'fail', lines: [config.baseUrlProblem ?? 'No base URL is set.', 'Set modelGateway.baseUrl to the site root of your gateway, e.g. https://gw.example.com.'] };
  }
  const urls = endpointUrls(config.baseUrl);
  const lines = [
    `Configured: ${config.baseUrlRaw ?? config.baseUrl}`,
    `Used (site root): ${config.baseUrl}`,
    ...(config.baseUrlNotice ? [config.baseUrlNotice] : []),
    `Calls: ${urls.models}, ${urls.messages}, ${urls.images}, ${urls.imagesAsync}, ${urls.tasks}`,
    ...(config.problems ?? []).map((problem) => `Setting ignored: ${problem}`),
  ];
  return { title: 'Base URL', status: config.baseUrlNotice || (config.problems ?? []).length ? 'warn' : 'ok', lines };
}

function adviceLines(error: unknown, config: Config): string[] {
  const advice = adviseOnError(error, { baseUrl: config.baseUrl, surface: 'connection' });
  const status = isGatewayError(error) && error.status !== undefined ? `HTTP ${error.status}` : isGatewayError(error) ? error.kind : 'error';
  const requestId = isGatewayError(error) && error.requestId ? ` (request id ${error.requestId})` : '';
  return [`${status}${requestId}: ${advice.title}`, ...(advice.detail ? [advice.detail] : [])];
}

async function modelsSteps(
  client: GatewayClient, key: KeyInfo, config: Config, add: (step: ReportStep, error?: unknown) => void, signal?: AbortSignal,
): Promise<ModelInfo[] | undefined> {
  const url = endpointUrls(config.baseUrl).models;
  let models: ModelInfo[];
  try {
    models = await client.listModels({ signal });
  } catch (error) {
    if (isListMissing(error)) return unlistedSteps(client, key, config, add, error, signal);
    const answered = isGatewayError(error) && error.status !== undefined;
    add({ title: 'Reachability', status: answered ? 'ok' : 'fail', lines: answered ? [`${url} answered HTTP ${(error as { status: number }).status}.`] : [`No HTTP answer from ${url}.`, ...adviceLines(error, config)] }, error);
    if (!answered) return undefined;
    const auth = isGatewayError(error) && error.kind === 'auth';
    add({ title: `Key accepted ("${key.name}", ${key.fingerprint})`, status: auth ? 'fail' : 'skipped', lines: auth ? adviceLines(error, config) : ['Not known: the model list failed first.'] }, error);
    if (!auth) add({ title: 'Models listed', status: 'fail', lines: adviceLines(error, config) }, error);
    return undefined;
  }
  const listed = new Set(models.map((m) => m.id));
  const extra = config.declaredModels.filter((id) => !listed.has(id));
  const split = splitByKind(models, config.modelKindOverrides);
  add({ title: 'Reachability', status: 'ok', lines: [`${url} answered.`] });
  add({ title: `Key accepted ("${key.name}", ${key.fingerprint})`, status: 'ok', lines: ['GET /v1/models accepted the key.'] });
  add({
    title: 'Models listed',
    status: models.length ? 'ok' : 'warn',
    lines: [
      `${models.length} models: ${split.chat.length} chat, ${split.image.length} image.`,
      `Chat: ${split.chat.map((m) => m.id).join(', ') || '(none)'}`,
      `Image: ${split.image.map((m) => m.id).join(', ') || '(none)'}`,
      ...(extra.length ? [`Declared in modelGateway.models.declared and not listed (offered too): ${extra.join(', ')}`] : []),
    ],
  });
  return models;
}

/**
 * GET /v1/models answered 404: either this gateway has no list route, or the base URL is wrong. An empty
 * POST /v1/messages tells them apart without a charge (see probeMessagesRoute); the declared models then
 * stand in for the list.
 */
async function unlistedSteps(
  client: GatewayClient, key: KeyInfo, config: Config, add: (step: ReportStep, error?: unknown) => void, listError: unknown, signal?: AbortSignal,
): Promise<ModelInfo[] | undefined> {
  const urls = endpointUrls(config.baseUrl);
  const probe = await probeMessagesRoute(client, signal);
  const keyTitle = `Key accepted ("${key.name}", ${key.fingerprint})`;
  if (probe.exists !== true) {
    const noAnswer = probe.exists === undefined;
    add({
      title: 'Reachability', status: 'fail',
      lines: noAnswer
        ? [`${urls.models} answered HTTP 404; ${urls.messages} gave no answer.`, ...adviceLines(probe.error, config)]
        : [`${urls.models} and ${urls.messages} both answered HTTP 404: there is no gateway under this base URL.`, ...adviceLines(listError, config)],
    }, noAnswer ? probe.error : listError);
    return undefined;
  }
  add({
    title: 'Reachability', status: 'ok',
    lines: [
      `${urls.models} answered HTTP 404: this gateway does not list models.`,
      `The base URL is right: ${urls.messages} exists (it answered HTTP ${probe.status} to an empty test request, which names no model and cannot be billed).`,
    ],
  });
  if (probe.auth) {
    add({ title: keyTitle, status: 'fail', lines: adviceLines(probe.error, config) }, probe.error);
    return undefined;
  }
  add({ title: keyTitle, status: probe.status === 403 ? 'warn' : 'ok', lines: [`POST /v1/messages did not refuse the key (HTTP ${probe.status} to the empty test request).`] });
  const declared = config.declaredModels.map((id) => ({ id }));
  const split = splitByKind(declared, config.modelKindOverrides);
  if (!declared.length) {
    add({ title: 'Models listed', status: 'fail', lines: ['This gateway does not list models and none are declared.', 'Add the model ids you use to the setting modelGateway.models.declared.'] });
    return undefined;
  }
  add({
    title: 'Models listed', status: 'warn',
    lines: [
      `This gateway does not list models; using the ${declared.length} declared in modelGateway.models.declared: ${split.chat.length} chat, ${split.image.length} image.`,
      `Chat: ${split.chat.map((m) => m.id).join(', ') || '(none)'}`,
      `Image: ${split.image.map((m) => m.id).join(', ') || '(none)'}`,
    ],
  });
  return declared;
}

async function messagesSteps(inputs: CheckInputs, models: ModelInfo[], add: (step: ReportStep, error?: unknown) => void): Promise<void> {
  const { config } = inputs;
  const chat = splitByKind(models, config.modelKindOverrides).chat.map((m) => m.id);
  const model = config.chat.defaultModel && chat.includes(config.chat.defaultModel) ? config.chat.defaultModel : chat[0];
  const headerLine = `Version header: ${config.versionHeader}: ${config.version}`;
  if (!model) {
    add({ title: 'Messages route permission', status: 'skipped', lines: ['No chat model is listed for this key.'] });
    add({ title: 'Version header accepted', status: 'skipped', lines: [headerLine, 'Not checked: needs a Messages request.'] });
    return;
  }
  if (config.chat.defaultModel && !chat.includes(config.chat.defaultModel)) {
    add({ title: 'Default chat model', status: 'warn', lines: [`"${config.chat.defaultModel}" is not in the list for this key; it may not be callable.`] });
  }
  if (!(await inputs.allowBillable(model))) {
    add({ title: 'Messages route permission', status: 'skipped', lines: ['Skipped: it needs a 1-token request, which is billable.'] });
    add({ title: 'Version header accepted', status: 'skipped', lines: [headerLine, 'Not checked: needs the Messages request.'] });
    return;
  }
  try {
    const reply = await inputs.client!.createMessage({ model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] }, { signal: inputs.signal });
    add({ title: 'Messages route permission', status: 'ok', lines: [`POST ${endpointUrls(config.baseUrl).messages} with ${model}, max_tokens 1: allowed (stop reason ${reply.stop_reason ?? 'none'}).`] });
    add({ title: 'Version header accepted', status: 'ok', lines: [headerLine] });
  } catch (error) {
    add({ title: 'Messages route permission', status: 'fail', lines: [`POST ${endpointUrls(config.baseUrl).messages} with ${model}:`, ...adviceLines(error, config)] }, error);
    const versionProblem = isGatewayError(error) && error.kind === 'bad_request' && /version/i.test(`${error.serverMessage ?? ''} ${error.message}`);
    add({ title: 'Version header accepted', status: versionProblem ? 'fail' : 'skipped', lines: [headerLine, versionProblem ? 'The gateway rejected the version header: set modelGateway.version (and versionHeader) to values it accepts.' : 'Not known: the request failed for another reason.'] }, error);
  }
}
