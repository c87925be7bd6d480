// What the host knows about each model's dialect (docs/gateway-protocol.md#dialects), handed to the gateway
// client, which decides (src/gateway/dialects/dialect.ts): the user's override (modelGateway.models.dialects), the model
// list's endpoint types (catalog), the family of the key's listed models, and what a refusal of /v1/messages taught,
// kept in globalState per key fingerprint + base URL + model so it survives restarts and never leaks to another key
// or gateway.
import * as vscode from 'vscode';
import type { DialectKnowledge, DialectSource } from '../gateway/types';
import { ROUTES } from '../gateway/dialects/dialectPlan';
import { familyOfModelIds } from '../gateway/dialects/dialect';
import type { Config } from '../shared/config';
import type { Dialect } from '../shared/dialects';
import type { CatalogSnapshot } from './services';

const LEARNED_KEY = 'modelGateway.learnedDialects';
type Learned = Record<string, Dialect>;

export interface DialectSourceDeps {
  config: { readonly current: Config };
  memento: vscode.Memento;
  /** The cached model list of the active key, without network. */
  catalog?: () => CatalogSnapshot | undefined;
  log?: { info(message: string): void };
}

/** The learned-dialect entry's key: one key fingerprint, one base URL, one model. */
export function learnedKey(fingerprint: string, baseUrl: string, model: string): string {
  return `${fingerprint}\n${baseUrl}\n${model}`;
}

/** What one key (fingerprint) on one base URL knows; no fingerprint (a key being checked): nothing is learned or kept. */
export function createDialectSource(
  deps: DialectSourceDeps,
  fingerprint: string | undefined,
  baseUrl: string,
): DialectSource {
  const read = (): Learned => deps.memento.get<Learned>(LEARNED_KEY) ?? {};
  // A key being checked (no fingerprint yet): what it learns lives as long as its client.
  const unsaved = new Map<string, Dialect>();
  return {
    knowledge(model: string): DialectKnowledge {
      const snapshot = deps.catalog?.();
      const listed =
        snapshot && snapshot.baseUrl === baseUrl && snapshot.keyFingerprint === fingerprint
          ? snapshot.models.find((m) => m.id === model)
          : undefined;
      const chatIds = listed ? snapshot!.models.filter((m) => m.kind === 'chat' && !m.declared).map((m) => m.id) : [];
      return {
        override: deps.config.current.modelDialects?.[model],
        endpointTypes: listed?.endpointTypes,
        listed: listed !== undefined,
        // sub2api serves one platform per key group: a list of OpenAI models only proves an OpenAI group.
        groupFamily: familyOfModelIds(chatIds),
        learned: fingerprint ? read()[learnedKey(fingerprint, baseUrl, model)] : unsaved.get(model),
      };
    },
    learned(model, dialect, evidence) {
      if (!fingerprint) {
        unsaved.set(model, dialect);
        return;
      }
      const key = learnedKey(fingerprint, baseUrl, model);
      const all = read();
      if (all[key] === dialect) return;
      void deps.memento.update(LEARNED_KEY, { ...all, [key]: dialect });
      // Once per model, key and gateway: the next requests go straight to the dialect that answered.
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Model Gateway: the gateway does not take {0} for {1}, so it is now called over {2}. This is remembered; the setting modelGateway.models.dialects changes it.',
          ROUTES[evidence.from ?? 'messages'],
          model,
          ROUTES[dialect],
        ),
      );
    },
  };
}

/** Forgets every learned dialect (the test harness, between suites). */
export async function forgetLearnedDialects(memento: vscode.Memento): Promise<void> {
  await memento.update(LEARNED_KEY, undefined);
}
