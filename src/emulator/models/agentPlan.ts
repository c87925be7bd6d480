// The scripted agent model's answer to plain requests (no directives), so that `npm start` can show an agent
// turn as a newcomer would ask for it: "add a test for parseConfig" finds the code, reads it, the project's
// package.json and its tests, proposes a new test file next to the tests, asks to run the project's test
// command, reads the output and sums up. Any other request gets a read-only look around and an answer.
//
// Deterministic and stateless like the directive script (agentScript.ts): the phase is the number of tool
// steps since the task, and every choice is computed from the task text and the tool_results of earlier steps.
// Tool results are data: they can pick which found file to read or where the tests live, never the command
// (always the project's fixed test command) nor anything about approvals, which the client decides anyway.

/** A tool the request offers, by role; the input keys come from its schema. */
export interface OfferedTool {
  name: string;
  input_schema?: unknown;
}

export interface PlanCall {
  name: string;
  input: Record<string, unknown>;
}
export interface PlanStep {
  calls: PlanCall[];
  results: Array<{ text: string; isError: boolean } | undefined>;
}

export type NaturalTurn = { kind: 'tools'; text: string; calls: PlanCall[] } | { kind: 'final'; text: string };

type Role = 'find' | 'search' | 'read' | 'list' | 'create' | 'edit' | 'run';

const ROLE_NAMES: Record<Role, { known: string[]; word: RegExp }> = {
  find: { known: ['find_files', 'file_search', 'glob'], word: /find|glob/i },
  search: { known: ['search_text', 'grep_search', 'grep', 'search'], word: /search|grep/i },
  read: { known: ['read_file', 'readFile', 'view'], word: /read/i },
  list: { known: ['list_directory', 'list_dir', 'ls'], word: /list|dir/i },
  create: { known: ['create_file', 'write_file', 'write_to_file'], word: /create|write/i },
  edit: { known: ['propose_edit', 'edit_file', 'apply_edit'], word: /edit/i },
  run: {
    known: ['run_command', 'run_in_terminal', 'execute_command', 'bash', 'shell'],
    word: /command|terminal|shell|exec/i,
  },
};

function toolFor(tools: OfferedTool[], role: Role): OfferedTool | undefined {
  const { known, word } = ROLE_NAMES[role];
  for (const n of known) {
    const t = tools.find((x) => x.name === n);
    if (t) return t;
  }
  return tools.find((t) => word.test(t.name));
}

function keyOf(tool: OfferedTool, names: string[]): string {
  const p = (tool.input_schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return names.find((n) => n in p) ?? names[0];
}

const PATH_KEYS = ['path', 'filePath', 'file_path', 'file'];

function call(tools: OfferedTool[], role: Role, values: Record<string, unknown>): PlanCall | undefined {
  const tool = toolFor(tools, role);
  if (!tool) return undefined;
  const input: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const names =
      k === 'path'
        ? PATH_KEYS
        : k === 'pattern'
          ? ['pattern', 'glob', 'query']
          : k === 'query'
            ? ['query', 'pattern', 'regex']
            : k === 'command'
              ? ['command', 'cmd', 'commandLine']
              : k === 'content'
                ? ['content', 'contents', 'text', 'file_text']
                : [k];
    input[keyOf(tool, names)] = v;
  }
  return { name: tool.name, input };
}

// ---- what the user asked ----

export type Intent = { kind: 'test'; subject: string } | { kind: 'explore'; keyword?: string };

/** "add a test for parseConfig", "write tests for src/math.ts", "create unit tests covering `slugify`". */
const TEST_REQUEST =
  /\b(?:add|write|create|make|generate)\b[^\n]*?\btests?\b\s+(?:for|of|covering|to)\s+(?:the\s+)?(?:function\s+|module\s+|file\s+|class\s+)?[`'"]?([A-Za-z_$][\w$./-]*)/i;

const STOP_WORDS = new Set([
  'what',
  'where',
  'which',
  'does',
  'this',
  'that',
  'there',
  'these',
  'about',
  'with',
  'from',
  'have',
  'project',
  'workspace',
  'please',
  'could',
  'would',
  'should',
  'explain',
  'show',
  'tell',
  'find',
  'file',
  'files',
  'code',
  'work',
  'works',
  'into',
  'your',
  'their',
  'them',
  'then',
  'than',
  'when',
  'will',
  'repo',
  'repository',
  'look',
]);

export function intentOf(task: string): Intent {
  const m = TEST_REQUEST.exec(task);
  if (m) return { kind: 'test', subject: m[1].replace(/[.,;:!?]+$/, '') };
  // A quoted or code-like word first, else the longest ordinary word that says something.
  const quoted = /[`'"]([A-Za-z_$][\w$.-]{2,})[`'"]/.exec(task)?.[1];
  if (quoted) return { kind: 'explore', keyword: quoted };
  const words = (task.match(/[A-Za-z_$][\w$]{3,}/g) ?? []).filter((w) => !STOP_WORDS.has(w.toLowerCase()));
  const keyword = words.sort((a, b) => b.length - a.length)[0];
  return { kind: 'explore', keyword };
}

// ---- reading tool results ----

/** Paths listed by a find/list result: one per line, headers ([…]) and notes left out, secrets skipped. */
export function listedPaths(text: string | undefined): string[] {
  if (!text) return [];
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(
      (l) =>
        l !== '' &&
        !l.startsWith('[') &&
        !/^No (files|matches)/.test(l) &&
        !/\(secret: not shared\)$/.test(l) &&
        !/\s/.test(l),
    );
}

/** `path:line: text` lines of a search result. */
function searchHits(text: string | undefined): Array<{ path: string; line: number; text: string }> {
  if (!text) return [];
  const hits: Array<{ path: string; line: number; text: string }> = [];
  for (const l of text.split('\n')) {
    const m = /^(.+?):(\d+):\s?(.*)$/.exec(l);
    if (m && !m[1].startsWith('[')) hits.push({ path: m[1], line: Number(m[2]), text: m[3] });
  }
  return hits;
}

/** The file text of a read result (its `[path: lines …]` header and truncation note removed). */
function fileText(text: string | undefined): string {
  if (!text) return '';
  return text.replace(/^\[[^\n]*\]\n?/, '').replace(/\n\[Truncated at [^\n]*\]$/, '');
}

const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const dir = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const ext = (p: string) => /\.([A-Za-z0-9]+)$/.exec(base(p))?.[1] ?? '';
const stem = (p: string) => base(p).replace(/\.[^.]*$/, '');
const isTestPath = (p: string) => /(^|[/.\-_])(tests?|spec|__tests__)([/.\-_]|$)/i.test(p);
const join = (d: string, f: string) => (d ? `${d}/${f}` : f);

/** The subject as a name (a path's file stem, a dotted name's last part). */
function subjectName(subject: string): string {
  if (subject.includes('/')) return stem(subject);
  if (/\.(?:[jt]sx?|mjs|cjs|py|go|rs|java)$/i.test(subject)) return stem(subject);
  return subject.split('.').pop() || subject;
}

/** The file that defines the subject: a path named like it, else a search hit that looks like a definition. */
function sourceFile(subject: string, found: string[], hits: Array<{ path: string; text: string }>): string | undefined {
  const name = subjectName(subject).toLowerCase();
  const code = (p: string) => /\.(?:[cm]?[jt]sx?|py)$/i.test(p) && !isTestPath(p) && !/(^|\/)node_modules\//.test(p);
  if (subject.includes('/') && found.includes(subject)) return subject;
  const named = found.filter(code).find((p) => stem(p).toLowerCase() === name);
  if (named) return named;
  const esc = subjectName(subject).replace(/[$]/g, '\\$');
  const definition = new RegExp(
    `(function|class|def|const|let|var|interface|type)\\s+${esc}\\b|\\b${esc}\\s*[=:]\\s*(async\\s*)?(function|\\()`,
  );
  const def = hits.find((h) => code(h.path) && definition.test(h.text));
  if (def) return def.path;
  return found.find(code) ?? hits.find((h) => code(h.path))?.path;
}

interface PackageInfo {
  testScript?: string;
  framework: 'node' | 'mocha' | 'jest' | 'vitest';
  module: boolean;
}

function packageInfo(text: string | undefined): PackageInfo | undefined {
  if (!text) return undefined;
  try {
    const pkg = JSON.parse(fileText(text)) as {
      scripts?: Record<string, unknown>;
      dependencies?: Record<string, unknown>;
      devDependencies?: Record<string, unknown>;
      type?: unknown;
    };
    const deps = { ...pkg.dependencies, ...pkg.devDependencies };
    const test = typeof pkg.scripts?.test === 'string' ? pkg.scripts.test : undefined;
    const framework =
      'vitest' in deps || /\bvitest\b/.test(test ?? '')
        ? 'vitest'
        : 'jest' in deps || /\bjest\b/.test(test ?? '')
          ? 'jest'
          : 'mocha' in deps || /\bmocha\b/.test(test ?? '')
            ? 'mocha'
            : 'node';
    // npm's placeholder test script fails on purpose: it is not a test command.
    const placeholder = test !== undefined && /no test specified/.test(test);
    return { testScript: placeholder ? undefined : test, framework, module: pkg.type === 'module' };
  } catch {
    return undefined;
  }
}

/** Exported names of a JS/TS or Python source, with their parameter counts where they are functions. */
function exportsOf(source: string, language: 'js' | 'py'): Array<{ name: string; params?: number }> {
  const out: Array<{ name: string; params?: number }> = [];
  const add = (name: string, params?: string) => {
    if (!out.some((e) => e.name === name))
      out.push({ name, params: params === undefined ? undefined : countParams(params) });
  };
  if (language === 'py') {
    for (const m of source.matchAll(/^def ([A-Za-z]\w*)\s*\(([^)]*)\)/gm))
      if (!m[1].startsWith('_')) add(m[1], m[2].replace(/\bself\b,?/, ''));
    return out;
  }
  for (const m of source.matchAll(
    /export\s+(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(([^)]*)\)/g,
  ))
    add(m[1], m[2]);
  for (const m of source.matchAll(
    /export\s+const\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s*)?\(([^)]*)\)\s*(?::[^=]+)?=>/g,
  ))
    add(m[1], m[2]);
  for (const m of source.matchAll(/export\s+(?:const|let|class)\s+([A-Za-z_$][\w$]*)/g)) add(m[1]);
  for (const m of source.matchAll(/(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/g)) add(m[1]);
  const objectExport = /module\.exports\s*=\s*\{([^}]*)\}/.exec(source)?.[1];
  if (objectExport)
    for (const n of objectExport
      .split(',')
      .map((s) => s.split(':')[0].trim())
      .filter((s) => /^[A-Za-z_$][\w$]*$/.test(s)))
      add(n);
  // Parameter counts of plain functions named in module.exports.
  for (const e of out) {
    if (e.params !== undefined) continue;
    const f = new RegExp(`function\\s+${e.name.replace(/\$/g, '\\$')}\\s*\\(([^)]*)\\)`).exec(source);
    if (f) e.params = countParams(f[1]);
  }
  return out;
}

/** Parameters before the first default or rest one (what Function.length counts). */
function countParams(list: string): number {
  const params = list
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  let n = 0;
  for (const p of params) {
    if (p.startsWith('...') || /=/.test(p.replace(/=>/g, ''))) break;
    n++;
  }
  return n;
}

/** Where the new test goes and how it imports the source: next to the project's tests, named like them. */
function testFilePath(source: string, tests: string[]): string {
  const name = stem(source);
  const e = ext(source);
  if (e === 'py') {
    const pyTest = tests.find((t) => ext(t) === 'py');
    return join(pyTest ? dir(pyTest) : dir(source), `test_${name}.py`);
  }
  const sameFamily = tests.filter((t) => /^[cm]?[jt]sx?$/.test(ext(t)));
  const model = sameFamily.find((t) => ext(t) === e) ?? sameFamily[0];
  const kind = model && /\.spec\.[^.]+$/.test(model) ? 'spec' : 'test';
  const taken = new Set(tests);
  let candidate = join(model ? dir(model) : dir(source), `${name}.${kind}.${e}`);
  for (let i = 2; taken.has(candidate); i++)
    candidate = join(model ? dir(model) : dir(source), `${name}.${i}.${kind}.${e}`);
  return candidate;
}

/** The import path from one file to another (POSIX, relative, starting with ./ or ../). */
function relativeImport(from: string, to: string): string {
  const a = dir(from).split('/').filter(Boolean);
  const b = to.split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  const up = a.length - i;
  const rest = b.slice(i).join('/');
  return up === 0 ? `./${rest}` : `${'../'.repeat(up)}${rest}`;
}

/** An example the source documents for a function: one string argument and the string it gives. */
export interface DocExample {
  input: string;
  output: string;
}

/**
 * The examples in the comment right above a function's definition, written `"hello world" -> "Hello World"` (or `=>`,
 * `→`). Only plain strings (no quotes, backslashes or line breaks inside): the test is written from them, so a
 * comment can choose the strings a test compares, never code.
 */
export function docExamples(source: string, name: string): DocExample[] {
  const esc = name.replace(/\$/g, '\\$');
  const def = new RegExp(
    `^[ \\t]*(?:export\\s+)?(?:default\\s+)?(?:async\\s+)?(?:function\\s*\\*?\\s*${esc}\\b|(?:const|let|var)\\s+${esc}\\s*[=:])`,
    'm',
  ).exec(source);
  if (!def) return [];
  const above = source.slice(0, def.index).split('\n');
  above.pop(); // the part of the definition's line before it (empty)
  const comment: string[] = [];
  for (let i = above.length - 1; i >= 0; i--) {
    const line = above[i].trim();
    if (!/^(\/\*|\*|\/\/)/.test(line)) break;
    comment.unshift(line);
  }
  const examples: DocExample[] = [];
  for (const m of comment.join('\n').matchAll(/"([^"\\\n]*)"\s*(?:->|=>|→)\s*"([^"\\\n]*)"/g))
    examples.push({ input: m[1], output: m[2] });
  return examples;
}

/** A JavaScript string literal of a plain string. */
const jsString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * A first test: what the source's comments show the subject doing (`"hello world" -> "Hello World"` becomes
 * `titleCase('hello world')` equal to `'Hello World'`); where no example is documented, that the subject (or each
 * export) exists with the arity the source declares. `behaviour` says which.
 */
export function testSource(o: {
  testPath: string;
  sourcePath: string;
  source: string;
  subject: string;
  pkg?: PackageInfo;
}): { content: string; count: number; behaviour: boolean } {
  const name = subjectName(o.subject);
  if (ext(o.sourcePath) === 'py') {
    const all = exportsOf(o.source, 'py');
    const targets = all.some((e) => e.name === name) ? all.filter((e) => e.name === name) : all.slice(0, 3);
    const module = relativeImport(o.testPath, o.sourcePath)
      .replace(/^\.\//, '')
      .replace(/\.py$/, '')
      .replace(/^(\.\.\/)+/, '')
      .replace(/\//g, '.');
    const lines =
      targets.length > 0
        ? [`from ${module} import ${targets.map((t) => t.name).join(', ')}`, '']
        : [`import ${module}`, ''];
    for (const t of targets) {
      lines.push('', `def test_${t.name}_is_callable():`, `    assert callable(${t.name})`);
    }
    if (targets.length === 0) lines.push('', 'def test_module_imports():', `    assert ${module} is not None`);
    return {
      content: `${lines.join('\n').replace(/\n{3,}/g, '\n\n\n')}\n`,
      count: Math.max(1, targets.length),
      behaviour: false,
    };
  }
  const all = exportsOf(o.source, 'js');
  const targets = all.some((e) => e.name === name) ? all.filter((e) => e.name === name) : all.slice(0, 3);
  const ts = /^[cm]?tsx?$/.test(ext(o.sourcePath));
  let spec = relativeImport(o.testPath, o.sourcePath);
  if (ts) spec = spec.replace(/\.[cm]?tsx?$/, '');
  const esm = ts || o.pkg?.module === true || /^m/.test(ext(o.sourcePath)) || /\bexport\b/.test(o.source);
  const framework = o.pkg?.framework ?? 'node';
  const names = targets.map((t) => t.name);
  const lines: string[] = [];
  const importNames = names.length > 0 ? `{ ${names.join(', ')} }` : '* as subject';
  if (framework === 'vitest') lines.push("import { describe, expect, it } from 'vitest';");
  if (framework === 'node')
    lines.push(esm ? "import { describe, it } from 'node:test';" : "const { describe, it } = require('node:test');");
  if (framework === 'node' || framework === 'mocha')
    lines.push(esm ? "import assert from 'node:assert/strict';" : "const assert = require('node:assert/strict');");
  lines.push(
    esm
      ? `import ${importNames} from '${spec}';`
      : `const ${importNames.replace('* as subject', 'subject')} = require('${spec}');`,
    '',
  );
  const check = (actual: string, expected: string) =>
    framework === 'jest' || framework === 'vitest'
      ? `expect(${actual}).toBe(${expected});`
      : `assert.equal(${actual}, ${expected});`;
  lines.push(`describe('${names.length === 1 ? names[0] : stem(o.sourcePath)}', () => {`);
  if (targets.length === 0) {
    lines.push("  it('loads the module', () => {", `    ${check('typeof subject', "'object'")}`, '  });');
  }
  let count = 0;
  let behaviour = false;
  targets.forEach((t, i) => {
    if (i > 0) lines.push('');
    const examples = t.params === 1 ? docExamples(o.source, t.name) : [];
    if (examples.length > 0) {
      behaviour = true;
      examples.forEach((e, j) => {
        if (j > 0) lines.push('');
        lines.push(
          `  it(${jsString(`${t.name}: "${e.input}" gives "${e.output}"`)}, () => {`,
          `    ${check(`${t.name}(${jsString(e.input)})`, jsString(e.output))}`,
          '  });',
        );
      });
      count += examples.length;
      return;
    }
    count++;
    if (t.params !== undefined) {
      lines.push(
        `  it('${t.name} is a function of ${t.params} argument${t.params === 1 ? '' : 's'}', () => {`,
        `    ${check(`typeof ${t.name}`, "'function'")}`,
        `    ${check(`${t.name}.length`, String(t.params))}`,
        '  });',
      );
    } else {
      lines.push(`  it('exports ${t.name}', () => {`, `    ${check(`${t.name} === undefined`, 'false')}`, '  });');
    }
  });
  lines.push('});');
  return { content: `${lines.join('\n')}\n`, count: Math.max(1, count), behaviour };
}

/** The project's test command: a fixed one, never text taken from a file (tool results are data). */
function testCommand(pkg: PackageInfo | undefined, sourcePath: string, testPath: string): string | undefined {
  if (pkg?.testScript) return 'npm test';
  if (ext(sourcePath) === 'py') return 'python3 -m pytest -q';
  if (!pkg && /^[cm]?js$/.test(ext(testPath))) return `node --test ${testPath}`;
  return undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const quote = (s: string) => `\`${s.replace(/`/g, "'")}\``;

function lastLines(text: string, n: number): string {
  const lines = text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  return lines.slice(-n).join('\n');
}

// ---- the plan ----

/**
 * The next message for a plain request: tool calls, or the final answer. `steps` are the tool steps already
 * taken since the task (the assistant's calls with the results that came back), in order.
 */
export function planNaturalTurn(task: string, steps: PlanStep[], tools: OfferedTool[]): NaturalTurn {
  const intent = intentOf(task);
  return intent.kind === 'test' ? planTest(intent.subject, steps, tools) : planExplore(intent.keyword, steps, tools);
}

const byName = (
  step: PlanStep | undefined,
  tools: OfferedTool[],
  role: Role,
): Array<{ input: Record<string, unknown>; result?: { text: string; isError: boolean } }> => {
  if (!step) return [];
  const tool = toolFor(tools, role);
  return step.calls
    .map((c, i) => ({ c, r: step.results[i] }))
    .filter((x) => tool && x.c.name === tool.name)
    .map((x) => ({ input: x.c.input, result: x.r }));
};

const pathOf = (input: Record<string, unknown>): string =>
  String(PATH_KEYS.map((k) => input[k]).find((v) => typeof v === 'string') ?? '');

function planTest(subject: string, steps: PlanStep[], tools: OfferedTool[]): NaturalTurn {
  const name = subjectName(subject);
  const done = steps.length;
  if (done === 0) {
    const calls = [
      call(tools, 'find', { pattern: subject.includes('/') ? `**/${base(subject)}` : `**/*${name}*` }),
      call(tools, 'search', { query: name }),
    ].filter((c): c is PlanCall => c !== undefined);
    if (calls.length === 0)
      return {
        kind: 'final',
        text: `I cannot look for ${quote(subject)}: this request offers no tool to find files or search text.`,
      };
    return {
      kind: 'tools',
      text: `I'll add a test for ${quote(subject)}. First I look for where it is defined.`,
      calls,
    };
  }
  const found = byName(steps[0], tools, 'find').flatMap((x) =>
    x.result && !x.result.isError ? listedPaths(x.result.text) : [],
  );
  const hits = byName(steps[0], tools, 'search').flatMap((x) =>
    x.result && !x.result.isError ? searchHits(x.result.text) : [],
  );
  const source = sourceFile(subject, found, hits);
  if (done === 1) {
    if (!source)
      return {
        kind: 'final',
        text: `I could not find ${quote(subject)} in the workspace (no file named like it, no definition in the search results). Tell me which file it is in and I'll try again.`,
      };
    const calls = [
      call(tools, 'read', { path: source }),
      call(tools, 'read', { path: 'package.json' }),
      call(tools, 'find', { pattern: '**/{*.test.*,*.spec.*,test_*.py}' }),
    ].filter((c): c is PlanCall => c !== undefined);
    if (!calls.some((c) => c.name === toolFor(tools, 'read')?.name))
      return {
        kind: 'final',
        text: `${quote(subject)} seems to be in ${quote(source)}, but this request offers no tool to read it.`,
      };
    return {
      kind: 'tools',
      text: `${quote(subject)} is in ${quote(source)}. I read it, the project's package.json and look at its existing tests.`,
      calls,
    };
  }
  const reads = byName(steps[1], tools, 'read');
  const sourcePath = reads[0] ? pathOf(reads[0].input) : (source ?? '');
  const sourceRead = reads[0]?.result;
  const pkgRead = reads.find((r) => pathOf(r.input) === 'package.json')?.result;
  const pkg = pkgRead && !pkgRead.isError ? packageInfo(pkgRead.text) : undefined;
  const tests = byName(steps[1], tools, 'find')
    .flatMap((x) => (x.result && !x.result.isError ? listedPaths(x.result.text) : []))
    .filter((p) => !/(^|\/)node_modules\//.test(p));
  const testPath = testFilePath(sourcePath, tests);
  const where =
    tests.length > 0 ? `next to the project's tests in ${quote(dir(testPath) || '.')}` : `next to ${quote(sourcePath)}`;
  if (done === 2) {
    if (!sourceRead || sourceRead.isError)
      return {
        kind: 'final',
        text: `I could not read ${quote(sourcePath)}: ${(sourceRead?.text ?? 'no result').split('\n')[0]}`,
      };
    if (!/^(?:[cm]?[jt]sx?|py)$/.test(ext(sourcePath)))
      return {
        kind: 'final',
        text: `${quote(sourcePath)} is a .${ext(sourcePath)} file; I can only write JavaScript, TypeScript and Python tests.`,
      };
    const test = testSource({ testPath, sourcePath, source: fileText(sourceRead.text), subject, pkg });
    const create =
      call(tools, 'create', { path: testPath, content: test.content }) ??
      call(tools, 'edit', { path: testPath, content: test.content });
    if (!create)
      return {
        kind: 'final',
        text: `I would add ${quote(testPath)}, but this request offers no tool to write files. Here is the test:\n\n\`\`\`\n${test.content}\`\`\``,
      };
    return {
      kind: 'tools',
      text: `I'll create ${quote(testPath)} ${where} with ${plural(test.count, 'test')} for ${quote(name)}${pkg ? ` (${pkg.framework === 'node' ? 'node:test' : pkg.framework})` : ''}: ${test.behaviour ? 'the examples its comment documents' : 'only that it exists, as its comment documents no example ("input" -> "output")'}. Review the diff, then accept or reject it.`,
      calls: [create],
    };
  }
  const created = steps[2].results[0];
  const accepted = created !== undefined && !created.isError && /^Accepted/.test(created.text);
  const command = testCommand(pkg, sourcePath, testPath);
  if (done === 3) {
    if (!accepted)
      return {
        kind: 'final',
        text: `The new test file was not written (${(created?.text ?? 'no result').split('\n')[0]}). Nothing else changed; tell me what to do differently.`,
      };
    const run = command ? call(tools, 'run', { command }) : undefined;
    if (!run)
      return {
        kind: 'final',
        text: `I added ${quote(testPath)}. ${command ? `Run ${quote(command)} to try it` : 'This project has no test command I know of; run the test with your test runner'}.`,
      };
    return {
      kind: 'tools',
      text: `The test file is in place. I'll run the project's tests with ${quote(command!)} (you approve it first).`,
      calls: [run],
    };
  }
  const ran = steps[3]?.results[0];
  const exit = ran ? /Exit code: (\S+)/.exec(ran.text)?.[1] : undefined;
  const outcome = !ran
    ? 'The tests were not run.'
    : ran.isError
      ? `Running ${quote(command ?? 'the tests')} did not happen: ${ran.text.split('\n')[0]}`
      : exit === '0'
        ? `${quote(command ?? 'the tests')} passed (exit code 0).`
        : `${quote(command ?? 'the tests')} ended with exit code ${exit ?? 'unknown'}; the output's last lines:\n\n\`\`\`\n${lastLines(ran.text.replace(/^[\s\S]*?Output[^:\n]*:\n/, ''), 8)}\n\`\`\``;
  // A failing or unknown run is said first, as what it is: the turn ended, the task did not succeed.
  if (ran && !ran.isError && exit !== '0')
    return {
      kind: 'final',
      text: `The tests fail: I added ${quote(testPath)}, and ${outcome} Look at the failure: the new test or ${quote(name)} needs a fix.`,
    };
  if (!ran || ran.isError)
    return { kind: 'final', text: `I added ${quote(testPath)}, but it has not been run. ${outcome}` };
  return { kind: 'final', text: `Done: I added ${quote(testPath)} with a first test for ${quote(name)}. ${outcome}` };
}

function planExplore(keyword: string | undefined, steps: PlanStep[], tools: OfferedTool[]): NaturalTurn {
  const done = steps.length;
  if (done === 0) {
    const calls = [
      call(tools, 'list', { path: '.' }),
      keyword ? call(tools, 'search', { query: keyword }) : undefined,
    ].filter((c): c is PlanCall => c !== undefined);
    if (calls.length === 0)
      return {
        kind: 'final',
        text: 'This request offers no tool to look at the workspace, so I can only answer from the conversation.',
      };
    return {
      kind: 'tools',
      text: `I'll look around the workspace${keyword ? ` and search for ${quote(keyword)}` : ''} first (read-only).`,
      calls,
    };
  }
  const listing = byName(steps[0], tools, 'list').flatMap((x) =>
    x.result && !x.result.isError ? listedPaths(x.result.text) : [],
  );
  const hits = byName(steps[0], tools, 'search').flatMap((x) =>
    x.result && !x.result.isError ? searchHits(x.result.text) : [],
  );
  const readme = listing.find((p) => /^readme(\.|$)/i.test(base(p)));
  const target = hits[0]?.path ?? readme ?? listing.find((p) => base(p) === 'package.json');
  if (done === 1 && target && toolFor(tools, 'read')) {
    const read = call(
      tools,
      'read',
      hits[0]
        ? { path: target, startLine: Math.max(1, hits[0].line - 5), endLine: hits[0].line + 20 }
        : { path: target },
    )!;
    return { kind: 'tools', text: `I'll read ${quote(target)}.`, calls: [read] };
  }
  const parts: string[] = [];
  if (listing.length > 0)
    parts.push(
      `The workspace root has ${plural(listing.length, 'entry').replace('entrys', 'entries')}: ${listing.slice(0, 8).map(quote).join(', ')}${listing.length > 8 ? ', …' : ''}.`,
    );
  if (keyword) {
    parts.push(
      hits.length > 0
        ? `${quote(keyword)} appears on ${plural(hits.length, 'line')}; first in ${quote(`${hits[0].path}:${hits[0].line}`)}.`
        : `I found no mention of ${quote(keyword)}.`,
    );
  }
  const read = steps[1]?.results[0];
  if (read && !read.isError) {
    const first =
      fileText(read.text)
        .split('\n')
        .find((l) => l.trim() !== '')
        ?.trim() ?? '';
    parts.push(
      `${quote(target ?? 'The file')} starts with: “${first.length > 160 ? `${first.slice(0, 160)}…` : first}”`,
    );
  }
  parts.push(
    'I changed nothing. Ask me to add a test for a function (for example "add a test for parseConfig") and I will propose one.',
  );
  return { kind: 'final', text: parts.join('\n\n') };
}
