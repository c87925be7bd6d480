// Reads the repository's sub-agent definitions (VS Code side of src/agent/agentDefinitions.ts) as the instruction
// files are read: only in a trusted workspace and when the user reads instruction files, each file judged on its real
// path by the rule read_file follows (a link to ~/.ssh, .git/config or a secret is not read), at most
// AGENT_DEFINITION_CAP bytes of each and AGENT_DEFINITIONS_MAX files. What is left out is said (English notes for the
// log; the card says which definition a sub-agent used and what of it was not followed).
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  AGENT_DEFINITION_CAP,
  AGENT_DEFINITION_DIRS,
  AGENT_DEFINITIONS_MAX,
  instructionFileRefusal,
  parseAgentDefinition,
  relativeTo,
  type AgentDefinition,
} from '../agent';
import { head, instructionFilePolicy, readInstructionSettings } from './instructions';
import { realPathOf } from './resolve';

export async function readAgentDefinitions(): Promise<{ definitions: AgentDefinition[]; skipped: string[] }> {
  const skipped: string[] = [];
  if (!vscode.workspace.isTrusted || !readInstructionSettings().useFiles) return { definitions: [], skipped };
  const policy = await instructionFilePolicy();
  if (!policy) return { definitions: [], skipped };
  const folders = policy.workspaceFolders;
  const definitions: AgentDefinition[] = [];
  const names = new Set<string>();
  for (const folder of folders)
    for (const { dir, suffix } of AGENT_DEFINITION_DIRS) {
      const entries = await fs.promises.readdir(path.join(folder, dir)).catch(() => [] as string[]);
      for (const entry of entries.filter((e) => e.endsWith(suffix) && e.length > suffix.length).sort()) {
        if (definitions.length >= AGENT_DEFINITIONS_MAX) {
          skipped.push(`more than ${AGENT_DEFINITIONS_MAX} agent definitions: the rest are not read`);
          return { definitions, skipped };
        }
        const written = path.join(folder, dir, entry);
        const shown = relativeTo(written, folder);
        try {
          const { real, exists } = await realPathOf(written);
          if (!exists) continue;
          const refusal = instructionFileRefusal(written, real, policy);
          if (refusal !== undefined) {
            skipped.push(`${shown}: ${refusal}`);
            continue;
          }
          if (!(await fs.promises.stat(real)).isFile()) continue;
          const text = await head(real, AGENT_DEFINITION_CAP);
          const cut = Buffer.byteLength(text) > AGENT_DEFINITION_CAP;
          const parsed = parseAgentDefinition(cut ? text.slice(0, AGENT_DEFINITION_CAP) : text, shown, cut);
          if ('problem' in parsed) skipped.push(`${shown}: ${parsed.problem}`);
          else if (names.has(parsed.definition.name))
            skipped.push(`${shown}: the name ${parsed.definition.name} is taken by an earlier definition`);
          else {
            names.add(parsed.definition.name);
            definitions.push(parsed.definition);
          }
        } catch {
          // An unreadable file is left out like a missing one.
        }
      }
    }
  return { definitions, skipped };
}
