// The steps of Check Connection, without UI: base URL, network, reachability, key, models, Messages
// route permission (a 1-token billable request only when allowed) and the version header.
import { adviseOnError } from '../gateway';
import { isGatewayError } from '../gateway/errors/errors';
import type { GatewayClient, ModelInfo } from '../gateway/types';
import { BALANCE_ROUTE_PATHS, describeBalance, type Balance } from '../gateway/balance';
import { kindLabel, splitByKind, type KindSplit } from '../catalog/classify';
import { isListMissing, probeMessagesRoute } from '../catalog/listing';
import { endpointUrls, type Config } from '../shared/config';
import { DIALECT_TABLE } from '../shared/dialects';
import type { KeyInfo } from '../platform/services';
import type { ConnectionReport, ReportStep } from './report';
import { dialectStep } from './dialectStep';
import { english, type Localizer } from '../shared/l10n';

export interface CheckInputs {
  config: Config;
  key: KeyInfo | undefined;
  client: GatewayClient | undefined;
  proxyDescription: string;
  /** The names of the request headers the client sends (requestHeaderNames): listed, never their values. */
  requestHeaderNames?: readonly string[];
  /** Asked only when the models step passed; true runs the 1-token billable request. */
  allowBillable(model: string): Promise<boolean>;
  onStep?(step: ReportStep): void;
  /** The step that runs now, by its title (the progress notification follows it, also while a dialog asks). */
  onProgress?(title: string): void;
  signal?: AbortSignal;
  /** The key's balance where the gateway offers one (AccountService.balance: probes only when due). */
  balance?(): Promise<Balance | undefined>;
  /** Translates the report (vscode.l10n from the command; English by default). */
  l10n?: Localizer;
  /** This base URL answered 404/405 to the async image submit before (remembered; see src/platform/imageRoutes.ts). */
  withoutAsyncImages?: boolean;
}

export async function runConnectionCheck(inputs: CheckInputs): Promise<ConnectionReport> {
  const { config } = inputs;
  const l10n = inputs.l10n ?? english;
  const report: ConnectionReport = {
    startedAt: new Date().toISOString(),
    baseUrl: config.baseUrl,
    steps: [],
    ok: true,
  };
  const add = (step: ReportStep, error?: unknown): void => {
    report.steps.push(step);
    if (step.status === 'fail') {
      report.ok = false;
      report.firstError ??= error;
    }
    inputs.onStep?.(step);
  };
  add(baseUrlStep(config, l10n));
  const headerNames = inputs.requestHeaderNames ?? [];
  add({
    title: l10n.t('Network'),
    status: 'ok',
    lines: [
      inputs.proxyDescription,
      ...(headerNames.length > 0
        ? [l10n.t('Request headers sent on every route (names only): {0}', headerNames.join(', '))]
        : []),
    ],
  });
  if (!config.baseUrl) return report;
  if (!inputs.key || !inputs.client) {
    add({
      id: 'apiKey',
      title: l10n.t('API key'),
      status: 'fail',
      lines: [
        l10n.t(
          'No API key is stored. Run Model Gateway: Set API Key (a dedicated key for this device, from your gateway console).',
        ),
      ],
    });
    return report;
  }
  const now = (title: string): void => inputs.onProgress?.(title);
  now(l10n.t('Models listed'));
  const models = await modelsSteps(inputs.client, inputs.key, config, add, l10n, inputs.signal);
  if (!models) return report;
  if (inputs.balance) now(l10n.t('Balance'));
  await balanceStep(inputs, add, l10n);
  add(imageRoutesStep(inputs, models, l10n));
  now(l10n.t('Messages route permission'));
  await messagesSteps(inputs, models, add, l10n);
  now(l10n.t('Dialects'));
  // After the one request the check may send: a refusal it met is part of what is known now.
  add(
    dialectStep(
      inputs.client,
      splitByKind(models, config.modelKindOverrides).chat.map((m) => m.id),
      l10n,
    ),
  );
  return report;
}

/** The balance, when the gateway offers one; nothing at all when it does not (that is not a problem). */
async function balanceStep(inputs: CheckInputs, add: (step: ReportStep) => void, l10n: Localizer): Promise<void> {
  const balance = await inputs.balance?.().catch(() => undefined);
  if (!balance) return;
  add({
    id: 'balance',
    title: l10n.t('Balance'),
    status: 'ok',
    lines: [
      describeBalance(balance, l10n),
      l10n.t("From {0}: the gateway's own figures, in its unit.", BALANCE_ROUTE_PATHS[balance.route]),
    ],
  });
}

function baseUrlStep(config: Config, l10n: Localizer): ReportStep {
  if (!config.baseUrl) {
    return {
      id: 'baseUrl',
      title: l10n.t('Base URL'),
      status: 'fail',
      lines: [
        config.baseUrlProblem ?? l10n.t('No base URL is set.'),
        l10n.t('Set modelGateway.baseUrl to the site root of your gateway, e.g. https://gw.example.com.'),
      ],
    };
  }
  const urls = endpointUrls(config.baseUrl);
  const lines = [
    l10n.t('Configured: {0}', config.baseUrlRaw ?? config.baseUrl),
    l10n.t('Used (site root): {0}', config.baseUrl),
    ...(config.baseUrlNotice ? [config.baseUrlNotice] : []),
    l10n.t('Calls: {0}', [urls.models, urls.messages, urls.images, urls.imagesAsync, urls.tasks].join(', ')),
    ...(config.problems ?? []).map((problem) => l10n.t('Setting ignored: {0}', problem)),
  ];
  return {
    id: 'baseUrl',
    title: l10n.t('Base URL'),
    status: config.baseUrlNotice || (config.problems ?? []).length ? 'warn' : 'ok',
    lines,
  };
}

function adviceLines(error: unknown, config: Config, l10n: Localizer): string[] {
  const advice = adviseOnError(error, { baseUrl: config.baseUrl, surface: 'connection', l10n });
  const status =
    isGatewayError(error) && error.status !== undefined
      ? `HTTP ${error.status}`
      : isGatewayError(error)
        ? error.kind
        : 'error';
  const head =
    isGatewayError(error) && error.requestId ? l10n.t('{0} (request id {1})', status, error.requestId) : status;
  return [`${head}: ${advice.title}`, ...(advice.detail ? [advice.detail] : [])];
}

async function modelsSteps(
  client: GatewayClient,
  key: KeyInfo,
  config: Config,
  add: (step: ReportStep, error?: unknown) => void,
  l10n: Localizer,
  signal?: AbortSignal,
): Promise<ModelInfo[] | undefined> {
  const keyTitle = l10n.t('Key accepted ("{0}", {1})', key.name, key.fingerprint);
  const url = endpointUrls(config.baseUrl).models;
  let models: ModelInfo[];
  try {
    models = await client.listModels({ signal });
  } catch (error) {
    if (isListMissing(error)) return unlistedSteps(client, keyTitle, config, add, error, l10n, signal);
    const answered = isGatewayError(error) && error.status !== undefined;
    add(
      {
        id: 'reachability',
        title: l10n.t('Reachability'),
        status: answered ? 'ok' : 'fail',
        lines: answered
          ? [l10n.t('{0} answered HTTP {1}.', url, (error as { status: number }).status)]
          : [l10n.t('No HTTP answer from {0}.', url), ...adviceLines(error, config, l10n)],
      },
      error,
    );
    if (!answered) return undefined;
    const auth = isGatewayError(error) && error.kind === 'auth';
    add(
      {
        id: 'key',
        title: keyTitle,
        status: auth ? 'fail' : 'skipped',
        lines: auth ? adviceLines(error, config, l10n) : [l10n.t('Not known: the model list failed first.')],
      },
      error,
    );
    if (!auth)
      add(
        { id: 'models', title: l10n.t('Models listed'), status: 'fail', lines: adviceLines(error, config, l10n) },
        error,
      );
    return undefined;
  }
  const listed = new Set(models.map((m) => m.id));
  const extra = config.declaredModels.filter((id) => !listed.has(id));
  const split = splitByKind(models, config.modelKindOverrides);
  add({ id: 'reachability', title: l10n.t('Reachability'), status: 'ok', lines: [l10n.t('{0} answered.', url)] });
  add({ id: 'key', title: keyTitle, status: 'ok', lines: [l10n.t('GET /v1/models accepted the key.')] });
  add({
    id: 'models',
    title: l10n.t('Models listed'),
    status: models.length ? 'ok' : 'warn',
    lines: [
      l10n.t('{0} models: {1} chat, {2} image.', models.length, split.chat.length, split.image.length),
      ...idLines(split, l10n),
      ...(extra.length
        ? [l10n.t('Declared in modelGateway.models.declared and not listed (offered too): {0}', extra.join(', '))]
        : []),
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
  client: GatewayClient,
  keyTitle: string,
  config: Config,
  add: (step: ReportStep, error?: unknown) => void,
  listError: unknown,
  l10n: Localizer,
  signal?: AbortSignal,
): Promise<ModelInfo[] | undefined> {
  const urls = endpointUrls(config.baseUrl);
  const probe = await probeMessagesRoute(client, signal);
  if (probe.exists !== true) {
    const noAnswer = probe.exists === undefined;
    add(
      {
        id: 'reachability',
        title: l10n.t('Reachability'),
        status: 'fail',
        lines: noAnswer
          ? [
              l10n.t('{0} answered HTTP 404; {1} gave no answer.', urls.models, urls.messages),
              ...adviceLines(probe.error, config, l10n),
            ]
          : [
              l10n.t(
                '{0} and {1} both answered HTTP 404: there is no gateway under this base URL.',
                urls.models,
                urls.messages,
              ),
              ...adviceLines(listError, config, l10n),
            ],
      },
      noAnswer ? probe.error : listError,
    );
    return undefined;
  }
  add({
    id: 'reachability',
    title: l10n.t('Reachability'),
    status: 'ok',
    lines: [
      l10n.t('{0} answered HTTP 404: this gateway does not list models.', urls.models),
      l10n.t(
        'The base URL is right: {0} exists (it answered HTTP {1} to an empty test request, which names no model and cannot be billed).',
        urls.messages,
        probe.status,
      ),
    ],
  });
  if (probe.auth) {
    add({ id: 'key', title: keyTitle, status: 'fail', lines: adviceLines(probe.error, config, l10n) }, probe.error);
    return undefined;
  }
  add({
    id: 'key',
    title: keyTitle,
    status: probe.status === 403 ? 'warn' : 'ok',
    lines: [l10n.t('POST /v1/messages did not refuse the key (HTTP {0} to the empty test request).', probe.status)],
  });
  const declared = config.declaredModels.map((id) => ({ id }));
  const split = splitByKind(declared, config.modelKindOverrides);
  if (!declared.length) {
    add({
      id: 'models',
      title: l10n.t('Models listed'),
      status: 'fail',
      lines: [
        l10n.t('This gateway does not list models and none are declared.'),
        l10n.t('Add the model ids you use to the setting modelGateway.models.declared.'),
      ],
    });
    return undefined;
  }
  add({
    id: 'models',
    title: l10n.t('Models listed'),
    status: 'warn',
    lines: [
      l10n.t(
        'This gateway does not list models; using the {0} declared in modelGateway.models.declared: {1} chat, {2} image.',
        declared.length,
        split.chat.length,
        split.image.length,
      ),
      ...idLines(split, l10n),
    ],
  });
  return declared;
}

/** Which image routes are used, from what is known: the setting and what the gateway answered before. No request. */
function imageRoutesStep(inputs: CheckInputs, models: ModelInfo[], l10n: Localizer): ReportStep {
  const { config } = inputs;
  const images = splitByKind(models, config.modelKindOverrides).image.length;
  const lines =
    config.images.mode === 'sync'
      ? [
          l10n.t(
            'Synchronous route (modelGateway.images.mode is "sync"): POST /v1/images/generations and /v1/images/edits.',
          ),
        ]
      : inputs.withoutAsyncImages
        ? [
            l10n.t(
              'This gateway has no async image routes: it answered 404 to the async submit before (nothing was charged). Images use POST /v1/images/generations and /v1/images/edits.',
            ),
          ]
        : [
            l10n.t(
              'Async routes are used (POST /v1/images/generations/async, GET /v1/images/tasks/<id>); not checked here, to send nothing billable. If the gateway lacks them, the first image is sent once on the synchronous route instead, and later ones go there directly.',
            ),
          ];
  if (images === 0) lines.push(l10n.t('No image model is listed for this key.'));
  return { id: 'imageRoutes', title: l10n.t('Image routes'), status: 'ok', lines };
}

function idLines(split: KindSplit<ModelInfo>, l10n: Localizer): string[] {
  const none = l10n.t('(none)');
  return [
    l10n.t('Chat: {0}', split.chat.map((m) => m.id).join(', ') || none),
    l10n.t('Image: {0}', split.image.map((m) => m.id).join(', ') || none),
    ...split.other.map((g) =>
      l10n.t('Not offered in chat or images, {0}: {1}', kindLabel(g.kind, l10n), g.models.map((m) => m.id).join(', ')),
    ),
  ];
}

async function messagesSteps(
  inputs: CheckInputs,
  models: ModelInfo[],
  add: (step: ReportStep, error?: unknown) => void,
  l10n: Localizer,
): Promise<void> {
  const { config } = inputs;
  const chat = splitByKind(models, config.modelKindOverrides).chat.map((m) => m.id);
  const model =
    config.chat.defaultModel && chat.includes(config.chat.defaultModel) ? config.chat.defaultModel : chat[0];
  const headerLine = l10n.t('Version header: {0}: {1}', config.versionHeader, config.version);
  const route = l10n.t('Messages route permission');
  const header = l10n.t('Version header accepted');
  if (!model) {
    add({ title: route, status: 'skipped', lines: [l10n.t('No chat model is listed for this key.')] });
    add({ title: header, status: 'skipped', lines: [headerLine, l10n.t('Not checked: needs a Messages request.')] });
    return;
  }
  if (config.chat.defaultModel && !chat.includes(config.chat.defaultModel)) {
    add({
      title: l10n.t('Default chat model'),
      status: 'warn',
      lines: [l10n.t('"{0}" is not in the list for this key; it may not be callable.', config.chat.defaultModel)],
    });
  }
  if (!(await inputs.allowBillable(model))) {
    add({
      title: route,
      status: 'skipped',
      lines: [l10n.t('Skipped: it needs a 1-token request, which is billable.')],
    });
    add({ title: header, status: 'skipped', lines: [headerLine, l10n.t('Not checked: needs the Messages request.')] });
    return;
  }
  try {
    const reply = await inputs.client!.createMessage(
      { model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] },
      { signal: inputs.signal },
    );
    add({
      title: route,
      status: 'ok',
      lines: [
        l10n.t(
          'POST {0} with {1}, max_tokens 1: allowed (stop reason {2}).',
          routeUrl(inputs.client!, config.baseUrl, model),
          model,
          reply.stop_reason ?? 'none',
        ),
      ],
    });
    add({ title: header, status: 'ok', lines: [headerLine] });
  } catch (error) {
    add(
      {
        title: route,
        status: 'fail',
        lines: [
          l10n.t('POST {0} with {1}:', routeUrl(inputs.client!, config.baseUrl, model), model),
          ...adviceLines(error, config, l10n),
        ],
      },
      error,
    );
    const versionProblem =
      isGatewayError(error) &&
      error.kind === 'bad_request' &&
      /version/i.test(`${error.serverMessage ?? ''} ${error.message}`);
    add(
      {
        title: header,
        status: versionProblem ? 'fail' : 'skipped',
        lines: [
          headerLine,
          versionProblem
            ? l10n.t(
                'The gateway rejected the version header: set modelGateway.version (and versionHeader) to values it accepts.',
              )
            : l10n.t('Not known: the request failed for another reason.'),
        ],
      },
      error,
    );
  }
}

/** The URL the model's requests go to now (after the call: what a refusal may just have taught). */
function routeUrl(client: GatewayClient, baseUrl: string, model: string): string {
  return baseUrl + DIALECT_TABLE[client.dialectFor?.(model).dialect ?? 'messages'].path;
}
