// Markdown that stays inert in any viewer (pure): an exported conversation is opened later in GitHub, a static-site
// generator or an editor's preview that renders raw HTML, so the model's `<script>`, `<img onerror=…>`, `<iframe>`
// or a `javascript:` link must arrive as text. Outside fenced code blocks and inline code spans, `&` and `<` are
// written as entities (the text reads the same; no tag, comment or entity survives), and a link or image whose
// destination has a scheme other than http, https or mailto points to `#` instead. Code keeps its characters: a
// fence or a code span is shown verbatim by every viewer.

const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function inertMarkdown(text: string): string {
  const out: string[] = [];
  let fence: { char: string; length: number } | undefined;
  for (const line of text.split('\n')) {
    const opener = FENCE.exec(line);
    if (fence) {
      out.push(line);
      if (opener && opener[1][0] === fence.char && opener[1].length >= fence.length && line.trim() === opener[1])
        fence = undefined;
      continue;
    }
    if (opener && !(opener[1][0] === '`' && line.slice(opener[0].length).includes('`'))) {
      fence = { char: opener[1][0], length: opener[1].length };
      out.push(line);
      continue;
    }
    out.push(inertLine(line));
  }
  return out.join('\n');
}

/** One line outside a fence: code spans kept, the rest escaped and its link destinations checked. */
function inertLine(line: string): string {
  let result = '';
  let i = 0;
  while (i < line.length) {
    const tick = line.indexOf('`', i);
    if (tick < 0) {
      result += escapeText(line.slice(i));
      break;
    }
    result += escapeText(line.slice(i, tick));
    let run = tick;
    while (line[run] === '`') run++;
    const ticks = line.slice(tick, run);
    const close = findRun(line, ticks, run);
    if (close < 0) {
      result += ticks; // no closing run: literal backticks
      i = run;
      continue;
    }
    result += line.slice(tick, close + ticks.length);
    i = close + ticks.length;
  }
  return neutralizeLinks(result);
}

/** The next run of exactly these backticks from `from`, or -1. */
function findRun(line: string, ticks: string, from: number): number {
  for (let at = line.indexOf(ticks, from); at >= 0; at = line.indexOf(ticks, at + 1)) {
    const before = at > 0 ? line[at - 1] : '';
    const after = line[at + ticks.length] ?? '';
    if (before !== '`' && after !== '`') return at;
    while (line[at] === '`') at++;
  }
  return -1;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

/** Inline links and images `](dest …)` and reference definitions `[x]: dest` with an unsafe scheme go to `#`. */
function neutralizeLinks(line: string): string {
  const fixed = line.replace(/(\]\(\s*)([^)\s]*)/g, (_m, head: string, dest: string) => head + safeDestination(dest));
  return fixed.replace(
    /^( {0,3}\[[^\]]+\]:\s*)(\S+)/,
    (_m, head: string, dest: string) => head + safeDestination(dest),
  );
}

function safeDestination(dest: string): string {
  // Browsers drop whitespace and control characters inside a URL before they read its scheme.
  const bare = dest
    .replace(/^&lt;/, '')
    .replace(/[\s\u0000-\u001f\u007f]/g, '')
    .toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(bare)?.[1];
  return scheme === undefined || SAFE_SCHEMES.has(scheme) ? dest : '#';
}
