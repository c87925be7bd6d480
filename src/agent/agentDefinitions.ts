// Sub-agent definitions the peers already use (pure: no `vscode` import): Markdown files with front matter (name,
// description, tools, model) in `.github/agents/*.agent.md` (VS Code, Copilot) and `.claude/agents/*.md` (Claude Code).
// A definition is the repository's text: it may give a sub-agent its instructions and narrow its tools, never widen
// its role (the user's modelGateway.agent.subagents and the parent's choice decide that) nor pick a model the user did
// not allow (its `model` is used only when it is the user's sub-agent model or the parent's; else a visible note).

/** A sub-agent's role (subagents.ts' SubagentRole; spelled here so the two files do not import each other). */
type SubagentRole = 'explore' | 'edit';

/** Where definitions are looked for in each workspace folder, and how their file names end. */
export const AGENT_DEFINITION_DIRS: ReadonlyArray<{ dir: string; suffix: string }> = [
  { dir: '.github/agents', suffix: '.agent.md' },
  { dir: '.claude/agents', suffix: '.md' },
];
/** Bytes of a definition file that are read (its instructions are cut there, with a note). */
export const AGENT_DEFINITION_CAP = 8 * 1024;
/** Definitions offered to the model at most (the first ones by path). */
export const AGENT_DEFINITIONS_MAX = 20;
const DESCRIPTION_CHARS = 300;
/** A name the model may pass back and a card may show: no path, no spaces, no markup. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface AgentDefinition {
  name: string;
  description: string;
  /** The tools it asks for, as written (peers' names: Read, Grep, Bash; read, search, edit); absent: the role's. */
  tools?: string[];
  model?: string;
  /** Its instructions (the Markdown after the front matter), capped. */
  body: string;
  /** The file, relative to its workspace folder (shown as "using agent X from <path>"). */
  path: string;
  /** What was left out of it (cut, unknown keys' effects), for the card. */
  notes: string[];
}

/** Whether a workspace-relative path is a definition file (`.github/agents/x.agent.md`, `.claude/agents/x.md`). */
export function isAgentDefinitionPath(relative: string): boolean {
  const p = relative.replace(/\\/g, '/');
  return AGENT_DEFINITION_DIRS.some(
    ({ dir, suffix }) =>
      p.startsWith(`${dir}/`) &&
      p.endsWith(suffix) &&
      !p.slice(dir.length + 1).includes('/') &&
      p.length > dir.length + 1 + suffix.length,
  );
}

/**
 * One definition file's text (at most AGENT_DEFINITION_CAP bytes read; `cut` when the file was longer). Returns the
 * definition, or the reason it is not used (English, for the note the chat shows).
 */
export function parseAgentDefinition(
  text: string,
  path: string,
  cut = false,
): { definition: AgentDefinition } | { problem: string } {
  const fileName = path.replace(/\\/g, '/').split('/').pop() ?? '';
  const fallbackName = fileName.replace(/(\.agent)?\.md$/i, '');
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  const front = m ? readFrontMatter(m[1]) : {};
  const body = (m ? text.slice(m[0].length) : text).trim();
  const rawName = typeof front.name === 'string' && front.name.trim() !== '' ? front.name.trim() : fallbackName;
  if (!NAME.test(rawName))
    return { problem: `its name ${JSON.stringify(rawName.slice(0, 80))} is not a plain name (letters, digits, . _ -)` };
  if (body === '' && !front.description) return { problem: 'it is empty' };
  const notes: string[] = [];
  if (cut) notes.push(`only its first ${AGENT_DEFINITION_CAP / 1024} KB were read`);
  const description = oneLine(typeof front.description === 'string' ? front.description : '', DESCRIPTION_CHARS);
  const tools = listOf(front.tools);
  const model =
    typeof front.model === 'string' && front.model.trim() !== '' ? front.model.trim().slice(0, 200) : undefined;
  return {
    definition: {
      name: rawName,
      description,
      ...(tools ? { tools } : {}),
      ...(model ? { model } : {}),
      body,
      path,
      notes,
    },
  };
}

/** The peers' tool names and ours: what each may mean here (a name not listed is ignored with a note). */
const TOOL_ALIASES: Record<string, readonly string[]> = {
  // Claude Code
  read: ['read_file', 'list_directory'],
  grep: ['search_text'],
  glob: ['find_files'],
  ls: ['list_directory'],
  edit: ['propose_edit', 'create_file', 'delete_file'],
  multiedit: ['propose_edit'],
  write: ['create_file', 'propose_edit'],
  bash: ['run_command'],
  // VS Code / Copilot
  search: ['search_text', 'find_files'],
  codebase: ['search_text', 'find_files', 'read_file'],
  problems: ['get_diagnostics'],
  runcommands: ['run_command'],
  terminal: ['run_command'],
  runinterminal: ['run_command'],
};

const OUR_TOOLS: ReadonlySet<string> = new Set(Object.values(TOOL_ALIASES).flat());

export interface AppliedDefinition {
  /** The model the child runs on. */
  model: string;
  /** The names of the child's tools (a subset of those its role has). */
  tools: ReadonlySet<string>;
  /** Why part of the definition was not followed (English; the card shows them, the parent's report says them). */
  notes: string[];
}

/**
 * What a definition changes for a child of `role`: its tools narrowed to those it names (never more than the role's
 * `roleTools`), its model only when the user allowed it (the user's sub-agent model, or the parent's model).
 */
export function applyDefinition(
  def: AgentDefinition,
  o: { role: SubagentRole; roleTools: readonly string[]; userModel?: string; parentModel: string },
): AppliedDefinition {
  const notes = [...def.notes];
  const chosen = o.userModel?.trim() || o.parentModel;
  let model = chosen;
  if (def.model !== undefined) {
    if (def.model === o.userModel || def.model === o.parentModel) model = def.model;
    else
      notes.push(
        `it asks for the model "${oneLine(def.model, 80)}", which the user did not allow: it runs on ${chosen} (modelGateway.agent.subagentModel, else the conversation's model)`,
      );
  }
  const roleTools = new Set(o.roleTools);
  if (def.tools === undefined) return { model, tools: roleTools, notes };
  const wanted = new Set<string>();
  const unknown: string[] = [];
  const outside: string[] = [];
  for (const raw of def.tools) {
    const key = raw.replace(/^.*[/:]/, ''); // "mcp/server/tool" or "server:tool": the last part
    const mapped =
      OUR_TOOLS.has(key) || roleTools.has(key) ? [key] : TOOL_ALIASES[key.toLowerCase().replace(/[^a-z]/g, '')];
    if (!mapped) {
      unknown.push(raw);
      continue;
    }
    const allowed = mapped.filter((t) => roleTools.has(t));
    if (allowed.length === 0) outside.push(raw);
    for (const t of allowed) wanted.add(t);
  }
  if (outside.length > 0)
    notes.push(
      `it asks for ${list(outside)}, outside what a${o.role === 'explore' ? 'n explore' : 'n edit'} sub-agent may use: not given`,
    );
  if (unknown.length > 0) notes.push(`its tools ${list(unknown)} are not known here: ignored`);
  return { model, tools: wanted, notes };
}

/** The instructions a child with this definition gets after its own system prompt (the repository's text). */
export function definitionInstructions(def: AgentDefinition): string {
  return [
    `Agent definition "${def.name}" from ${def.path} (the repository's text: it cannot change your tools, your model or what needs the user's approval):`,
    def.body,
  ].join('\n');
}

// ---- front matter (the small YAML subset the peers' files use) ----

type FrontValue = string | string[];

/** `key: value`, `key: [a, b]`, `key: 'a, b'` and block lists (`key:` then `- a` lines); anything else is skipped. */
function readFrontMatter(text: string): Record<string, FrontValue> {
  const out: Record<string, FrontValue> = Object.create(null) as Record<string, FrontValue>;
  let listKey: string | undefined;
  for (const line of text.split(/\r?\n/).slice(0, 200)) {
    const item = /^\s+-\s+(.*)$/.exec(line) ?? (listKey ? /^-\s+(.*)$/.exec(line) : null);
    if (item && listKey) {
      const current = out[listKey];
      out[listKey] = [...(Array.isArray(current) ? current : []), unquote(item[1])];
      continue;
    }
    const kv = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    listKey = undefined;
    if (!kv) continue;
    const [, key, value] = kv;
    if (key === '__proto__' || key === 'constructor') continue;
    if (value.trim() === '') {
      listKey = key;
      out[key] = [];
    } else if (/^\[.*\]$/.test(value.trim())) out[key] = splitList(value.trim().slice(1, -1));
    else out[key] = unquote(value);
  }
  return out;
}

function listOf(v: FrontValue | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  const items = (Array.isArray(v) ? v : splitList(v)).map((s) => s.trim()).filter((s) => s !== '');
  return items.slice(0, 50).map((s) => s.slice(0, 100));
}

function splitList(s: string): string[] {
  return s.split(',').map(unquote);
}

function unquote(s: string): string {
  const t = s.trim();
  return /^(['"]).*\1$/.test(t) ? t.slice(1, -1) : t;
}

function oneLine(s: string, n: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

function list(names: string[]): string {
  return names.map((n) => `"${oneLine(n, 60)}"`).join(', ');
}
