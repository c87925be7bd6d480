// The docs stay navigable: every relative link of README.md, CONTRIBUTING.md and docs/*.md reaches a file
// (and a heading, by GitHub's slug rules), and every docs/… reference in the code points at a section that
// exists. Comments cite our own docs, never a spec that is not in the repository.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const root = path.resolve(__dirname, '..', '..');
const self = path.relative(root, __filename).split(path.sep).join('/');

function read(rel: string): string {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}

function docFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs.sort()];
}

function codeFiles(): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'fixtures') walk(child);
      } else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(entry.name)) {
        out.push(child);
      }
    }
  };
  for (const dir of ['src', 'test', 'scripts', 'bench']) walk(dir);
  return out.filter((f) => f !== self);
}

/** Markdown text outside fenced code blocks and inline code spans (links there are not links). */
function proseOf(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || marker.startsWith(fence))) {
      fence = fence ? undefined : marker;
      lines.push('');
      continue;
    }
    lines.push(fence ? '' : line.replace(/(`+)[^`]*?\1/g, ''));
  }
  return lines;
}

/** GitHub's heading slug (github-slugger): lower case, punctuation dropped, spaces become dashes. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a markdown file offers: heading slugs (duplicates numbered as GitHub does) and <a id/name>. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || marker.startsWith(fence))) {
      fence = fence ? undefined : marker;
      continue;
    }
    if (fence) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = githubSlug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  }
  return anchors;
}

/** Relative link targets of a markdown file: [text](target), ![alt](target), [id]: target, src/href attributes. */
function linksOf(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseOf(markdown)) {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
    for (const m of line.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)) targets.push(m[1]);
    for (const m of line.matchAll(/\s(?:src|href)="([^"]+)"/g)) targets.push(m[1]);
  }
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('//'));
}

/** undefined when `target` (relative to the file `from`, or to the repository root) resolves; else why not. */
function problemOf(from: string, target: string, relativeToRoot = false): string | undefined {
  const [file, anchor] = target.split('#', 2);
  const rel =
    file === ''
      ? from
      : path.posix.normalize(path.posix.join(relativeToRoot ? '' : path.posix.dirname(from), decodeURIComponent(file)));
  if (rel.startsWith('..')) return `${target}: leaves the repository`;
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return `${target}: no file ${rel}`;
  if (anchor === undefined) return undefined;
  if (!rel.endsWith('.md')) return `${target}: an anchor into a file that is not markdown`;
  if (!anchorsOf(fs.readFileSync(abs, 'utf8')).has(decodeURIComponent(anchor)))
    return `${target}: no section #${anchor} in ${rel}`;
  return undefined;
}

describe('docs', () => {
  it('slugs headings the way GitHub does', () => {
    assert.strictEqual(githubSlug('Gateway client (`src/gateway/`)'), 'gateway-client-srcgateway');
    assert.strictEqual(githubSlug("Gateway models in VS Code's chat"), 'gateway-models-in-vs-codes-chat');
    assert.strictEqual(githubSlug('Keys, CSP & links'), 'keys-csp--links');
    assert.strictEqual(githubSlug('snake_case stays'), 'snake_case-stays');
    assert.deepStrictEqual(
      [...anchorsOf('# A\n## Tests\n```\n# not a heading\n```\n### Tests\n')],
      ['a', 'tests', 'tests-1'],
    );
  });

  it('finds relative links and ignores external ones and code', () => {
    const md =
      '[a](docs/x.md#y) ![i](docs/images/p.png "t") [w](https://e.com) `[c](nope.md)`\n```\n[f](nope.md)\n```\n<img src="docs/images/q.png">\n[r]: CONTRIBUTING.md\n';
    assert.deepStrictEqual(linksOf(md), ['docs/x.md#y', 'docs/images/p.png', 'docs/images/q.png', 'CONTRIBUTING.md']);
  });

  it('has every relative link of README.md, CONTRIBUTING.md and docs/*.md resolve to a file and a section', () => {
    const problems = docFiles().flatMap((file) =>
      linksOf(read(file))
        .map((t) => problemOf(file, t))
        .filter((p) => p)
        .map((p) => `${file}: ${p}`),
    );
    assert.deepStrictEqual(problems, []);
  });

  it('has every docs/… reference under src, test, scripts and bench point at an existing file and section', () => {
    const problems: string[] = [];
    let references = 0;
    for (const file of codeFiles()) {
      for (const m of read(file).matchAll(/(?<![\w./-])docs\/[\w./-]+?\.md(?:#[\p{L}\p{N}_-]+)?/gu)) {
        references++;
        const problem = problemOf(file, m[0], true);
        if (problem) problems.push(`${file}: ${problem}`);
      }
    }
    assert.deepStrictEqual(problems, []);
    assert.ok(references > 0, 'the code cites no docs section at all: the scan is broken');
  });

  it('has no code cite a spec rule by number or a doc outside the repository', () => {
    const stale: [RegExp, string][] = [
      [/\bspec\b[^\n]{0,30}\brules?\s+\d/i, 'a numbered spec rule: cite docs/gateway-protocol.md#section'],
      [/\bspec,\s*[A-Z][a-z]+\s+\d/, 'a numbered spec rule: cite docs/gateway-protocol.md#section'],
      [/ARCHITECTURE\.md/, 'ARCHITECTURE.md: cite docs/architecture.md'],
      [/PROTOCOL\.md/, 'PROTOCOL.md: cite docs/gateway-protocol.md'],
      [/TESTING\.md/, 'TESTING.md: cite docs/testing.md'],
      [/docs\/sections\//, 'docs/sections/ does not exist'],
      [/shared\/docs\//, 'a doc outside the repository'],
    ];
    const problems: string[] = [];
    for (const file of codeFiles()) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          for (const [pattern, why] of stale) if (pattern.test(line)) problems.push(`${file}:${i + 1}: ${why}`);
        });
    }
    assert.deepStrictEqual(problems, []);
  });

  it('keeps README.md a user page: at most 12 KB, the two commands, screenshots that ship in the VSIX', () => {
    const readme = read('README.md');
    assert.ok(Buffer.byteLength(readme) <= 12 * 1024, `README.md is ${Buffer.byteLength(readme)} bytes`);
    assert.ok(readme.includes('npm install && npm start'), 'README.md lost `npm install && npm start`');
    assert.ok(/^npm test\b/m.test(readme), 'README.md lost `npm test`');
    const shipped = read('.vscodeignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('!'))
      .map((l) => l.slice(1));
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)|<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
    assert.ok(images.length > 0);
    for (const image of images) {
      assert.ok(!/^[a-z]+:/i.test(image), `${image}: README images stay relative (the VSIX ships them)`);
      assert.ok(
        shipped.some((glob) => globMatch(image, glob)),
        `${image} is not shipped by .vscodeignore`,
      );
    }
  });
});

/** The glob of .vscodeignore patterns: `*` within a path segment, `**` across segments. */
function globMatch(file: string, glob: string): boolean {
  const re = glob
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${re}$`).test(file);
}
