// What the composer shows of the user's settings, read on the host: the model picker's entries (with the vision
// guess and the user's own price table, as the usage view prices with it) and the agent's auto-approvals (user
// values only, as the policy reads them); and the one click that opens those approval settings.
import * as vscode from 'vscode';
import { approvalSummary, APPROVAL_SETTINGS_QUERY, readAgentSettings } from '../../agentHost/settings';
import { modelVision } from '../../catalog/vision';
import { parsePriceTable } from '../../gateway/pricing';
import type { CatalogModel } from '../../platform/services';
import { gatewaySettings } from '../../platform/settings';
import type { Config } from '../../shared/config';
import type { ApprovalSummary, ModelOption, ReasoningChoice } from '../../shared/protocol/chat';
import { modelOptionOf, nextReasoningSetting } from '../composer/modelOptions';

/** The picker's entries; they carry the user's modelGateway.models.reasoning value (the composer's Reasoning control). */
export function chatModelOptions(
  models: readonly CatalogModel[],
  settings: Readonly<Pick<Config, 'modelVision' | 'modelReasoning'>>,
): ModelOption[] {
  const userPrices = parsePriceTable(gatewaySettings.prices);
  return models.map((m) =>
    modelOptionOf(m, modelVision(m.raw, settings.modelVision).vision, userPrices, settings.modelReasoning ?? {}),
  );
}

/**
 * The composer's Reasoning choice: the user's own settings only (ConfigurationTarget.Global, never a workspace file,
 * as modelGateway.models.reasoning is read from user settings only); 'default' removes the model's entry. The page
 * shows the choice at once; the configuration change then brings the models with the stored value (register.ts).
 */
export async function setModelReasoning(model: string, choice: ReasoningChoice): Promise<undefined> {
  const config = vscode.workspace.getConfiguration('modelGateway');
  const next = nextReasoningSetting(config.inspect('models.reasoning')?.globalValue, model, choice);
  await config.update('models.reasoning', next, vscode.ConfigurationTarget.Global);
  return undefined;
}

export function approvalsNow(): ApprovalSummary {
  return approvalSummary(readAgentSettings());
}

export async function openApprovalSettings(): Promise<undefined> {
  await vscode.commands.executeCommand('workbench.action.openSettings', APPROVAL_SETTINGS_QUERY);
  return undefined;
}
