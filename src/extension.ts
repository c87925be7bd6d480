// activate(): wiring only. Commands, views and providers are registered at once with thin stubs; the code of
// the chat, images and native-chat features is its own bundle (dist/features/*.js, esbuild.js), required on
// the feature's first use (a command, the chat view's first resolve, a restored image panel, a @gateway
// request, a native-chat request or token count, a tool call). Activation loads only the services, the status bar,
// the base-URL notice and the model provider's model list; the key and diagnostics commands are a bundle too, and
// so is the error presenter (the gateway core's advice), loaded with the first error shown.
import * as vscode from 'vscode';
import { createServices } from './services';
import { registerDiagnostics } from './diagnostics/register';
import type { ChatFeature } from './chat/host/register';
import type { ImagesFeature } from './images/register';
import { hasTasksToResume } from './images/pending';
import { registerNativeChat } from './lm/host/register';
import { registerGatewayTools } from './lm/host/tools/register';
import { registerCommandTable, type TestHooks } from './platform/commands';
import type { ImageJobs, Services } from './platform/services';
import { TEST_HOOKS_COMMAND, Views } from './shared/commands';
import { DisposableStore } from './shared/dispose';
import { lazy } from './shared/lazy';
import { closeRestoredProposalTabs } from './agentHost/staleProposalTabs';
import { registerUsage } from './usage/host/register';
import { registerCompletionsStub } from './completions/host/stub';
import type { CompletionStatus } from './completions/host/status';

/** The feature bundles, by name (esbuild.js `features`). `require` is synchronous: a first use waits for nothing. */
const bundles = {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  chat: () => require('./features/chat.js') as typeof import('./chat/host/register'),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  images: () => require('./features/images.js') as typeof import('./images/register'),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  lm: () => require('./features/lm.js') as typeof import('./lm/host/chunk'),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  commands: () => require('./features/commands.js') as typeof import('./diagnostics/chunk'),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  errors: () => require('./features/errors.js') as typeof import('./platform/errorPresenter'),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  completions: () => require('./features/completions.js') as typeof import('./completions/host/register'),
};

export function activate(context: vscode.ExtensionContext): void {
  // Activation time is shared with every other extension: each part is timed and the total is logged.
  const timings: string[] = [];
  const timed = <T>(name: string, register: () => T): T => {
    const started = performance.now();
    const result = register();
    timings.push(`${name} ${(performance.now() - started).toFixed(1)}`);
    return result;
  };
  const started = performance.now();
  const store = new DisposableStore();
  context.subscriptions.push(store);
  const services = store.add(timed('services', () => createServices(context, bundles)));
  const loadFeature = <T extends vscode.Disposable>(name: string, create: () => T): (() => T) =>
    lazy(() => {
      const begun = performance.now();
      const feature = store.add(create());
      services.log.info(`Loaded the ${name} feature in ${(performance.now() - begun).toFixed(1)} ms.`);
      return feature;
    });
  const chat = loadFeature('chat', () => bundles.chat().registerChat(services));
  // The images bundle registers the panel serializer itself: the stub's registration gives way to it first.
  let serializerStub: vscode.Disposable | undefined;
  const images = loadFeature('images', () => {
    serializerStub?.dispose();
    return bundles.images().registerImages(services);
  });
  const lm = lazy(() => bundles.lm());
  // Code completion: the bundle loads once the user turned it on (completions/stub.ts decides).
  let completionStatus: CompletionStatus | undefined;
  const completions = loadFeature('completions', () =>
    bundles.completions().registerCompletions(services, completionStatus!),
  );
  const jobs: ImageJobs = { generate: (request, options) => images().jobs.generate(request, options) };
  timed('stubs', () => {
    const { status } = store.add(registerDiagnostics(services));
    const commandFeatures = loadFeature('commands', () => bundles.commands().registerCommandFeatures(services, status));
    store.add(registerCommandTable('keys', () => commandFeatures().keys));
    store.add(registerCommandTable('diagnostics', () => commandFeatures().diagnostics));
    if (underTestHarness(context)) {
      // Each hook names the feature whose code serves it; calling one loads that feature like a command does.
      const owner: Record<string, () => { testHooks: TestHooks }> = {
        setApiKey: commandFeatures,
        removeApiKey: commandFeatures,
        switchKey: commandFeatures,
        setSecretHeader: commandFeatures,
        listSecretHeaders: commandFeatures,
        removeSecretHeader: commandFeatures,
        checkConnection: commandFeatures,
        refreshModels: commandFeatures,
        copySupportInfo: commandFeatures,
        readBalance: commandFeatures,
        forgetLearnedDialects: commandFeatures,
        generateImage: images,
        editImage: images,
        imageTasks: images,
        forgetSyncOnlyImageRoutes: images,
        chatAgentTurn: chat,
        chatChooseModel: chat,
        chatAsk: chat,
        chatDeleteConversation: chat,
        chatStorage: chat,
        chatAgentStart: chat,
        chatLastAnswer: chat,
        chatStop: chat,
        chatLedger: chat,
        completionCounts: completions,
        completionStats: completions,
        completionStatusText: completions,
        completionRefusals: completions,
        forgetLearnedCompletionModes: completions,
        learnedCompletionModes: completions,
      };
      store.add(
        vscode.commands.registerCommand(TEST_HOOKS_COMMAND, (name: string, ...args: unknown[]) => {
          const feature = owner[name];
          if (!feature) throw new Error(`No test hook '${name}'.`);
          return feature().testHooks[name](...args);
        }),
      );
    }
    const completionsStub = store.add(
      registerCompletionsStub(services, (status) => {
        completionStatus = status;
        completions();
      }),
    );
    completionStatus = completionsStub.status;
    store.add(registerCommandTable('completions', completionsStub.commands));
    const usage = registerUsage(services);
    store.add(usage.panel);
    store.add(registerCommandTable('usage', usage.commands));
    registerChatStubs(store, chat);
    serializerStub = registerImageStubs(store, services, images);
    const nativeChat = store.add(registerNativeChat(services, jobs, lm));
    store.add(registerCommandTable('nativeChat', nativeChat.commands));
    store.add(registerGatewayTools(services, () => images().runner, lm));
  });
  const loading = codeLoadingMs(context.extension.id);
  const loaded = loading === undefined ? '' : `; code loading ${loading} ms before`;
  services.log.info(`Activated in ${(performance.now() - started).toFixed(1)} ms (${timings.join(', ')})${loaded}.`);
  // After the timing: a reload restored the diff tabs of proposals that died with the previous window.
  closeRestoredProposalTabs().then(
    (closed) => closed && services.log.info(`Closed ${closed} proposal tab(s) an earlier window left open.`),
    (error: unknown) => services.log.warn(`Could not close proposal tabs of an earlier window: ${String(error)}`),
  );
}

/**
 * The code-loading part of VS Code's activation time (reading, compiling and running dist/extension.js, with the
 * `vscode` API object it creates for the extension), from VS Code's own marks where the running version keeps
 * them on globalThis (an internal: undefined when it does not).
 */
function codeLoadingMs(extensionId: string): number | undefined {
  type Marks = { getMarks?(): { name: string; startTime: number }[] };
  const marks = (globalThis as { MonacoPerformanceMarks?: Marks }).MonacoPerformanceMarks?.getMarks?.() ?? [];
  const at = (name: string) => marks.find((m) => m.name === `code/extHost/${name}/${extensionId}`)?.startTime;
  const [will, did] = [at('willLoadExtensionCode'), at('didLoadExtensionCode')];
  return will !== undefined && did !== undefined ? did - will : undefined;
}

/**
 * The host test harness runs the suite inside this extension host: with extensionTestsPath (extensionMode Test)
 * or as a runner extension, and names its results file in MG_HOST_RESULTS either way (scripts/lib/layers.mjs).
 */
function underTestHarness(context: vscode.ExtensionContext): boolean {
  return context.extensionMode === vscode.ExtensionMode.Test || !!process.env.MG_HOST_RESULTS;
}

/** The chat view and commands; the first resolve or command loads the chat bundle. */
function registerChatStubs(store: DisposableStore, chat: () => ChatFeature): void {
  store.add(
    vscode.window.registerWebviewViewProvider(Views.chat, {
      resolveWebviewView: (view, resolveContext, token) => chat().view.resolveWebviewView(view, resolveContext, token),
    }),
  );
  store.add(registerCommandTable('chat', () => chat().commands));
}

/**
 * The image commands and the panel serializer (a panel open before a reload is restored through it). Tasks of
 * an earlier window still pending at the gateway must resume on activation: only then is the bundle loaded
 * at once, after activate() returns.
 */
function registerImageStubs(
  store: DisposableStore,
  services: Services,
  images: () => ImagesFeature,
): vscode.Disposable {
  store.add(registerCommandTable('images', () => images().commands));
  const serializer = store.add(
    vscode.window.registerWebviewPanelSerializer(Views.imagePanel, {
      deserializeWebviewPanel: (panel, state) => images().deserializeWebviewPanel(panel, state),
    }),
  );
  if (!hasTasksToResume(services.context.globalState)) return serializer;
  const resume = setTimeout(() => {
    try {
      void images().resume();
    } catch (error) {
      services.log.error('Resuming image tasks failed.', error);
    }
  }, 0);
  store.add({ dispose: () => clearTimeout(resume) });
  return serializer;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
