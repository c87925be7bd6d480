// highlight.js core with the languages people paste most (the full build would triple the bundle).
// Colours come from chat.css, which maps hljs classes to VS Code theme variables.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  php,
  python,
  ruby,
  rust,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Longer code is shown plain: highlighting a megabyte would freeze the view. */
export const HIGHLIGHT_LIMIT = 100_000;

/** Highlights `code` into `target` (hljs escapes the text itself); plain text when unknown or too long. */
export function highlightInto(target: HTMLElement, code: string, language: string | undefined): void {
  if (code.length > HIGHLIGHT_LIMIT || !language || !hljs.getLanguage(language)) {
    target.textContent = code;
    return;
  }
  target.innerHTML = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  target.classList.add('hljs');
}

/** Maps a fence language to a VS Code language id (for Insert / Open in editor). */
export function vscodeLanguageId(language: string | undefined): string | undefined {
  if (!language) return undefined;
  const lower = language.toLowerCase();
  const map: Record<string, string> = {
    js: 'javascript',
    jsx: 'javascriptreact',
    ts: 'typescript',
    tsx: 'typescriptreact',
    py: 'python',
    sh: 'shellscript',
    bash: 'shellscript',
    shell: 'shellscript',
    zsh: 'shellscript',
    rb: 'ruby',
    rs: 'rust',
    'c++': 'cpp',
    cs: 'csharp',
    yml: 'yaml',
    md: 'markdown',
    html: 'html',
    kt: 'kotlin',
  };
  const id = map[lower] ?? lower;
  return /^[a-z0-9_.+#-]{1,64}$/.test(id) ? id : undefined;
}
