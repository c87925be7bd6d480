// Which listed model code completion suggests (pure): the one-time offer, the status bar's toggle and the walkthrough
// all turn completion on with it. A model trained for fill-in-the-middle first (coder, Codestral, StarCoder, …), else
// a fast chat model (its name says mini / haiku / flash / …), else any other chat model; never one that reasons (a
// reasoner thinks before each fill: seconds per keystroke pause, billed thinking) and never a Responses-only one.
import { isFimModelName } from '../gateway/completion/completionMode';
import { dialectsOfEndpointTypes } from '../gateway/dialects/dialect';
import { modelReasons } from '../catalog/reasoning';
import type { ModelInfo } from '../gateway/types';

/** The part of a catalog entry the choice reads. */
export interface ChoosableModel {
  id: string;
  kind: string;
  raw: ModelInfo;
  endpointTypes?: readonly string[];
  declared?: boolean;
}

/** Names of the small, fast tiers of the chat families (their vendors' names for them). */
const FAST_NAME = /haiku|mini|flash|lite|nano|small|turbo|fast|instant|8b|7b/i;

/** True when the model may complete code: a chat model that does not reason and is not Responses-only. */
export function canComplete(m: ChoosableModel): boolean {
  if (m.kind !== 'chat' || modelReasons(m.raw)) return false;
  const dialects = dialectsOfEndpointTypes(m.endpointTypes);
  return !(dialects.length === 1 && dialects[0] === 'responses');
}

/** The model to suggest from a key's list, or undefined when none of its listed chat models can complete. */
export function recommendedCompletionModel(models: readonly ChoosableModel[] | undefined): string | undefined {
  const usable = (models ?? []).filter((m) => !m.declared && canComplete(m));
  return (usable.find((m) => isFimModelName(m.id)) ?? usable.find((m) => FAST_NAME.test(m.id)) ?? usable[0])?.id;
}
