// Read-only file tools: read_file, list_directory, find_files.
import * as vscode from 'vscode';
import { byPath, pageHeader, pageOf, type Tool, type ToolResult } from '../../agent';
import { displayPath, secretMatch, pathTarget } from '../resolve';
import { IMAGE_LIMITS, imageTypeOfName, readImageHeader } from '../../shared/imageFormat';
import { stripImageMetadata } from '../../shared/imageMetadata';
import { looksBinary, sliceLines } from '../text';
import { visibleToModel } from '../visible';
import { errorResult, int, openDocument, ResolvedInputs, str, UNTRUSTED, type Input, type ToolHost } from './common';

/** What read_file returns at most, in characters (the model pays for every one). */
export const READ_CAP_CHARS = 256 * 1024;
/** Files above this are not loaded at all (a range of a 2 GB log is not worth the memory). */
export const MAX_READ_BYTES = 20 * 1024 * 1024;
export const LIST_CAP = 500;
export const FIND_DEFAULT = 200;
export const FIND_MAX = 1000;
/** Files counted per folder for the total (sorted, then paged): beyond, the total is "more than". */
export const FIND_SCAN = 20_000;

export function tokenFrom(signal: AbortSignal): { token: vscode.CancellationToken; dispose(): void } {
  const source = new vscode.CancellationTokenSource();
  const onAbort = () => source.cancel();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    token: source.token,
    dispose: () => {
      signal.removeEventListener('abort', onAbort);
      source.dispose();
    },
  };
}

/** The URI to read bytes from: the approved real path for local files, so a symlink cannot redirect the read. */
function readUri(r: { uri: vscode.Uri; realPath: string }): vscode.Uri {
  return r.uri.scheme === 'file' ? vscode.Uri.file(r.realPath) : r.uri;
}

/** Bytes of an image read_file returns at most (the APIs' limit per image); the provider scales larger pixels itself. */
const MAX_IMAGE_BYTES = IMAGE_LIMITS.maxBytes;

/**
 * An image file as read_file's result: a line naming it, then the image block. The loop replaces the block by a
 * sentence for a model that does not read images (toolRunner.ts). The host cannot scale (no canvas here): an image
 * above 5 MB or 8000 px is refused with a sentence instead of sent.
 */
async function readImage(display: string, uri: vscode.Uri, size: number): Promise<ToolResult> {
  if (size > MAX_IMAGE_BYTES)
    return errorResult(`${display} is an image of ${size} bytes, above the 5 MB a model takes; it was not read.`);
  const bytes = await vscode.workspace.fs.readFile(uri);
  const header = readImageHeader(bytes);
  if (!header) return errorResult(`${display} is named like an image but is not a PNG, JPEG, WebP or GIF file.`);
  if (Math.max(header.width, header.height) > 8000)
    return errorResult(
      `${display} is ${header.width}×${header.height} px, above the 8000 px a model takes; it was not read.`,
    );
  return {
    content: [
      { type: 'text', text: `[${display}: ${header.mediaType} image, ${header.width}×${header.height} px]` },
      {
        type: 'image',
        // Without its metadata (EXIF GPS, XMP, text chunks): the model gets the picture, not where it was taken.
        source: {
          type: 'base64',
          media_type: header.mediaType,
          data: Buffer.from(stripImageMetadata(bytes)).toString('base64'),
        },
      },
    ],
    details: { path: display, image: { width: header.width, height: header.height } },
  };
}

export function readFileTool(host: ToolHost): Tool<Input> {
  const inputs = new ResolvedInputs();
  return {
    name: 'read_file',
    description:
      'Read a text file of the workspace, whole or a 1-based line range; output is capped at 256 KB and binary files are refused. A PNG, JPEG, WebP or GIF file is returned as the image (when you read images).',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace folder (or absolute).' },
        startLine: { type: 'integer', minimum: 1, description: 'First line to read (1-based, inclusive). Default 1.' },
        endLine: {
          type: 'integer',
          minimum: 1,
          description: 'Last line to read (inclusive). Default: the end of the file.',
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
    approvalClass: 'read',
    async target(input) {
      const { r } = await inputs.targetNow(host, input, 'path');
      const start = int(input, 'startLine', 1, Number.MAX_SAFE_INTEGER);
      const end = int(input, 'endLine', 1, Number.MAX_SAFE_INTEGER);
      const summary =
        start === undefined && end === undefined
          ? vscode.l10n.t('Read {0}', r.display)
          : end === undefined
            ? vscode.l10n.t('Read {0} from line {1}', r.display, start ?? 1)
            : vscode.l10n.t('Read {0} lines {1}–{2}', r.display, start ?? 1, end);
      return { ...pathTarget(r), summary };
    },
    async invoke(input): Promise<ToolResult> {
      if (!host.trusted()) return errorResult(UNTRUSTED);
      const { r } = await inputs.invokeNow(host, input, 'path');
      const start = int(input, 'startLine', 1, Number.MAX_SAFE_INTEGER);
      const end = int(input, 'endLine', 1, Number.MAX_SAFE_INTEGER);
      if (!r.exists) return errorResult(`${r.display} does not exist.`);
      const stat = await vscode.workspace.fs.stat(readUri(r));
      if (stat.type & vscode.FileType.Directory) return errorResult(`${r.display} is a directory: use list_directory.`);
      let text: string;
      let note = '';
      const doc = openDocument(vscode.workspace, r.uri);
      if (!doc && imageTypeOfName(r.display)) return readImage(r.display, readUri(r), stat.size);
      if (doc) {
        // What the user sees, unsaved changes included: the model must edit that text, not an older disk copy.
        text = doc.getText();
        if (doc.isDirty) note = ' (open in the editor with unsaved changes: this is the editor text)';
      } else {
        if (stat.size > MAX_READ_BYTES)
          return errorResult(
            `${r.display} is ${stat.size} bytes, above the ${MAX_READ_BYTES}-byte limit; use search_text to find the part you need.`,
          );
        const bytes = await vscode.workspace.fs.readFile(readUri(r));
        if (looksBinary(bytes))
          return errorResult(`${r.display} is a binary file (${bytes.length} bytes); it was not read.`);
        text = new TextDecoder('utf-8').decode(bytes);
      }
      const slice = sliceLines(text, start, end);
      if (slice.total > 0 && slice.from > slice.total)
        return errorResult(`${r.display} has ${slice.total} lines; startLine ${slice.from} is past the end.`);
      let body = slice.text;
      let to = slice.to;
      let truncated = '';
      if (body.length > READ_CAP_CHARS) {
        const cut = body.lastIndexOf('\n', READ_CAP_CHARS);
        body = body.slice(0, cut > 0 ? cut : READ_CAP_CHARS);
        to = slice.from + body.split('\n').length - 1;
        truncated = `\n[Truncated at ${READ_CAP_CHARS / 1024} KB: lines ${slice.from}–${to} of ${slice.total} shown. Read on with startLine ${to + 1}.]`;
      }
      const header =
        slice.total === 0
          ? `[${r.display}: empty file${note}]`
          : `[${r.display}: lines ${slice.from}–${to} of ${slice.total}${note}]`;
      return {
        content: `${header}\n${body}${truncated}`,
        details: { path: r.display, from: slice.from, to, total: slice.total, truncated: truncated !== '' },
      };
    },
  };
}

export function listDirectoryTool(host: ToolHost): Tool<Input> {
  const inputs = new ResolvedInputs();
  return {
    name: 'list_directory',
    description:
      'List the entries of a workspace directory (directories end with /); secret files are marked and never readable.',
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'Directory relative to the workspace folder. Default: the workspace folder.',
        },
      },
      additionalProperties: false,
    },
    approvalClass: 'read',
    async target(input) {
      const { r } = await inputs.targetNow(host, input, 'path', '.');
      return { ...pathTarget(r), summary: vscode.l10n.t('List {0}', r.display) };
    },
    async invoke(input) {
      if (!host.trusted()) return errorResult(UNTRUSTED);
      const { snap, r } = await inputs.invokeNow(host, input, 'path', '.');
      if (!r.exists) return errorResult(`${r.display} does not exist.`);
      const dir = readUri(r);
      const stat = await vscode.workspace.fs.stat(dir);
      if (!(stat.type & vscode.FileType.Directory)) return errorResult(`${r.display} is a file: use read_file.`);
      const entries = (await vscode.workspace.fs.readDirectory(dir)).sort(([a, ta], [b, tb]) => {
        const da = ta & vscode.FileType.Directory ? 0 : 1;
        const db = tb & vscode.FileType.Directory ? 0 : 1;
        return da - db || a.localeCompare(b);
      });
      const lines: string[] = [];
      for (const [name, type] of entries.slice(0, LIST_CAP)) {
        const childReal = `${r.realPath.replace(/[\\/]+$/, '')}/${name}`;
        const isDir = (type & vscode.FileType.Directory) !== 0;
        const secret = secretMatch(
          childReal,
          snap.policy.workspaceFolders,
          snap.allSecretPatterns,
          snap.policy.caseInsensitive,
        );
        lines.push(
          `${name}${isDir ? '/' : ''}${type & vscode.FileType.SymbolicLink ? ' (symlink)' : ''}${secret ? ' (secret: not shared)' : ''}`,
        );
      }
      const more = entries.length > LIST_CAP ? `\n[${entries.length - LIST_CAP} more entries not shown]` : '';
      return {
        content: `[${r.display}: ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}]\n${lines.join('\n')}${more}`,
        details: { path: r.display, count: entries.length },
      };
    },
  };
}

/** files.exclude (the user's "hide these") plus folders nobody wants listed, as one glob for findFiles. */
export function defaultExcludes(pattern: string): string | undefined {
  const globs = new Set<string>();
  const filesExclude = vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude') ?? {};
  for (const [glob, on] of Object.entries(filesExclude)) if (on === true) globs.add(glob);
  if (!pattern.includes('node_modules')) globs.add('**/node_modules/**');
  globs.add('**/.git/**');
  return globs.size > 0 ? `{${[...globs].join(',')}}` : undefined;
}

export function findFilesTool(host: ToolHost): Tool<Input> {
  return {
    name: 'find_files',
    description:
      'Find workspace files by glob pattern (e.g. "src/**/*.test.ts"); returns relative paths sorted by path, one page at a time, with the total.',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: {
          type: 'string',
          description: 'Glob relative to the workspace folder: * within a name, ** across folders, {a,b} alternatives.',
        },
        maxResults: {
          type: 'integer',
          minimum: 1,
          maximum: FIND_MAX,
          description: `At most this many paths per page (default ${FIND_DEFAULT}).`,
        },
        offset: {
          type: 'integer',
          minimum: 0,
          description: 'Skip this many paths of the sorted list: the next page starts where the last one ended.',
        },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    approvalClass: 'read',
    async target(input) {
      const pattern = str(input, 'pattern', true);
      int(input, 'maxResults', 1, FIND_MAX);
      int(input, 'offset', 0, Number.MAX_SAFE_INTEGER);
      const snap = await host.snapshot();
      return { paths: [...snap.policy.workspaceFolders], summary: vscode.l10n.t('Find files matching {0}', pattern) };
    },
    async invoke(input, ctx) {
      if (!host.trusted()) return errorResult(UNTRUSTED);
      const pattern = str(input, 'pattern', true).trim();
      if (pattern === '') return errorResult('the "pattern" field is empty.');
      const max = int(input, 'maxResults', 1, FIND_MAX) ?? FIND_DEFAULT;
      const offset = int(input, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
      const snap = await host.snapshot();
      const folders = vscode.workspace.workspaceFolders ?? [];
      const cancel = tokenFrom(ctx.signal);
      const found: string[] = [];
      // findFiles returns a cap's worth in no fixed order: every match (up to the scan cap) is listed and sorted, so
      // two identical calls give the same page and the total is known.
      let scanCapped = false;
      try {
        for (const folder of folders) {
          const uris = await vscode.workspace.findFiles(
            new vscode.RelativePattern(folder, pattern.replace(/^\.?\//, '')),
            defaultExcludes(pattern),
            FIND_SCAN + 1,
            cancel.token,
          );
          if (uris.length > FIND_SCAN) scanCapped = true;
          for (const u of uris) {
            const lexical = u.scheme === 'file' ? u.fsPath : u.path;
            // A folder symlink out of the workspace or into .git: findFiles followed it, list_directory would not.
            if (
              u.scheme === 'file' &&
              !(await visibleToModel(lexical, snap.policy.workspaceFolders, snap.policy.caseInsensitive))
            )
              continue;
            const shown = displayPath(lexical, lexical, snap.policy.workspaceFolders);
            const secret = secretMatch(
              lexical,
              folders.map((f) => (f.uri.scheme === 'file' ? f.uri.fsPath : f.uri.path)),
              snap.allSecretPatterns,
              snap.policy.caseInsensitive,
            );
            found.push(
              `${folders.length > 1 ? `${folder.name}/` : ''}${shown}${secret ? ' (secret: not shared)' : ''}`,
            );
          }
        }
      } finally {
        cancel.dispose();
      }
      found.sort(byPath);
      const page = pageOf(found.slice(0, FIND_SCAN), offset, max, scanCapped || found.length > FIND_SCAN);
      const header = pageHeader(page, 'files', `matching ${pattern}`, 'path');
      return {
        content: page.total === 0 ? `No files match ${pattern}.` : `${header}\n${page.items.join('\n')}`.trimEnd(),
        details: { count: page.items.length, total: page.total, capped: page.next !== undefined || page.atLeast },
      };
    },
  };
}
