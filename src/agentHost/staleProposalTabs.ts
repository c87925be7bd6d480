// Proposed changes live in this window's memory (proposals.ts): after a reload their diff editors cannot be restored,
// and VS Code showed "The editor could not be opened due to an unexpected error" in their place. At activation the
// tabs of an earlier window's proposals are closed; nothing of the user's is in them (the proposal is gone with the
// window that made it, and the file on disk is what it was). Its own small module: activate() imports it without
// loading the agent.
import * as vscode from 'vscode';

/** Every scheme the proposals use starts with this (tests register their own scheme next to the extension's). */
export const PROPOSAL_SCHEME_PREFIX = 'model-gateway-proposal';

function isProposal(uri: vscode.Uri | undefined): boolean {
  return uri?.scheme.startsWith(PROPOSAL_SCHEME_PREFIX) === true;
}

/**
 * The tabs that show a proposal: a diff with a proposed side, or a proposed side opened alone. With `proposedUri`,
 * only those that show that one proposal.
 */
export function proposalTabs(proposedUri?: vscode.Uri): vscode.Tab[] {
  const wanted = proposedUri?.toString();
  const shows = (uri: vscode.Uri | undefined) => (wanted ? uri?.toString() === wanted : isProposal(uri));
  const tabs: vscode.Tab[] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (input instanceof vscode.TabInputTextDiff && (shows(input.modified) || shows(input.original))) tabs.push(tab);
      else if (input instanceof vscode.TabInputText && shows(input.uri)) tabs.push(tab);
    }
  }
  return tabs;
}

/** Closes the proposal tabs a reload restored; at activation no proposal of this window exists yet. */
export async function closeRestoredProposalTabs(): Promise<number> {
  const tabs = proposalTabs();
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  return tabs.length;
}
