import fs from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/ (docs/architecture.md#layers): each folder names the folders it may import from. Imports point
 * down this table only: shared ← gateway, agent ← platform ← catalog, keys ← features ← extension.ts / services.ts.
 * `pure` folders never import `vscode`. A folder that is not listed here fails test/unit/layers.test.ts.
 */
export const LAYERS = {
  shared: { pure: true, imports: [] },
  // Files several windows share: atomic writes, the lock file, a watched folder (node fs; no DOM, so not in shared/).
  storage: { pure: true, imports: ['shared'] },
  gateway: { pure: true, imports: ['shared'] },
  emulator: { pure: true, imports: ['shared'] },
  webview: { pure: true, imports: ['shared'] },
  agent: { pure: true, imports: ['shared', 'gateway'] },
  platform: { pure: false, imports: ['shared', 'gateway'] },
  catalog: { pure: false, imports: ['shared', 'gateway', 'platform'] },
  keys: { pure: false, imports: ['shared', 'gateway', 'platform', 'catalog'] },
  diagnostics: { pure: false, imports: ['shared', 'gateway', 'platform', 'catalog', 'keys'] },
  images: { pure: false, imports: ['shared', 'gateway', 'platform', 'catalog'] },
  agentHost: { pure: false, imports: ['shared', 'gateway', 'platform', 'catalog', 'agent'] },
  chat: { pure: false, imports: ['shared', 'storage', 'gateway', 'platform', 'catalog', 'agent', 'agentHost'] },
  lm: { pure: false, imports: ['shared', 'gateway', 'platform', 'catalog', 'images', 'agent', 'agentHost'] },
  usage: { pure: false, imports: ['shared', 'storage', 'gateway', 'platform', 'catalog'] },
  completions: { pure: false, imports: ['shared', 'gateway', 'platform', 'catalog', 'agent', 'agentHost', 'usage'] },
};

/**
 * Modules of feature folders that run in plain Node (unit-tested there): no `vscode`, and of their own folder they
 * import only each other, never its VS Code glue. The chat's controller, its request slot, condenser and agent turns
 * are pure; register.ts, the view provider and the host actions are the glue.
 */
export const PURE_MODULES = {
  lm: [
    'requestMapping',
    'streamMapping',
    'tokens',
    'modelInfo',
    'lmErrors',
    'participantText',
    'streaming',
    'chatMarkdown',
    'agentText',
  ],
  usage: ['chart', 'budget'],
  completions: ['engine', 'gates', 'promptContext'],
  chat: [
    'session',
    'sessionDeps',
    'answerRunner',
    'requestSlot',
    'chatOutput',
    'askAnswer',
    'agentAnswer',
    'agentPort',
    'answerInstructions',
    'setupChecks',
    'planText',
    'condense',
    'condenser',
    'streamAnswer',
    'requestBuilder',
    'deltaBatcher',
    'conversation',
    'conversationStore',
    'historyMerge',
    'history',
    'errorCard',
    'attachments',
    'imageStore',
    'imageAttachment',
    'links',
    'mentions',
    'agentTurn',
    'agentEvents',
    'agentHistory',
    'agentSummary',
    'approvals',
    'filesWritten',
    'turnChanges',
    'exportMarkdown',
    'contextMeter',
    'conversationMode',
    'turnStore',
    'turnTranscripts',
    'relocalize',
  ],
};
const PURE_FEATURE_FILES = Object.entries(PURE_MODULES).map(
  ([folder, names]) => `src/${folder}/{${names.join(',')}}.ts`,
);

const SRC = path.join(import.meta.dirname, 'src');

/** The top folder of src/ a file is in ('' for src/extension.ts and src/services.ts, outside src: undefined). */
function topFolder(file) {
  const rel = path.relative(SRC, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const parts = rel.split(path.sep);
  if (parts.length > 1) return parts[0];
  // `../gateway` is the folder's index; `../services` is the top-level file.
  return fs.existsSync(path.join(SRC, parts[0])) && fs.statSync(path.join(SRC, parts[0])).isDirectory() ? parts[0] : '';
}

/**
 * `layers/imports`: resolves every relative import of a src/ file and checks it against LAYERS (and, for the pure
 * modules of feature folders, against their folder's glue). Path-based, so folder names inside paths
 * (src/shared/protocol/chat.ts) are not mistaken for the chat feature.
 */
export const layersPlugin = {
  rules: {
    imports: {
      meta: { type: 'problem', schema: [{ type: 'object', properties: { pureModule: { type: 'boolean' } } }] },
      create(context) {
        const from = topFolder(context.filename);
        const pureModule = context.options[0]?.pureModule === true;
        const check = (node, source) => {
          if (typeof source !== 'string') return;
          const layer = from ? LAYERS[from] : undefined;
          if (source === 'vscode' && (layer?.pure || pureModule)) {
            context.report({ node, message: `src/${from} is pure: no vscode import (docs/architecture.md#layers).` });
            return;
          }
          if (!source.startsWith('.') || from === undefined) return;
          const target = path.resolve(path.dirname(context.filename), source);
          const to = topFolder(target);
          if (to === undefined || to === from) {
            if (pureModule && to === from && !PURE_MODULES[from]?.includes(path.basename(target, '.ts'))) {
              context.report({
                node,
                message: `A pure module imports only the pure modules of its folder, not ${source}.`,
              });
            }
            return;
          }
          if (to === '') {
            context.report({ node, message: 'Only the composition root imports extension.ts and services.ts.' });
          } else if (from === '') {
            return;
          } else if (!LAYERS[to]) {
            context.report({
              node,
              message: `src/${to} has no entry in LAYERS (eslint.config.mjs): declare its layer.`,
            });
          } else if (!layer.imports.includes(to)) {
            const allowed = layer.imports.length
              ? layer.imports.map((i) => `src/${i}`).join(', ')
              : 'nothing outside itself';
            context.report({
              node,
              message: `src/${from} may not import src/${to}: it may import ${allowed} (docs/architecture.md#layers).`,
            });
          }
        };
        return {
          ImportDeclaration: (node) => check(node, node.source.value),
          ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
          ExportAllDeclaration: (node) => check(node, node.source.value),
          ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
        };
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.vscode-test/**',
      'scripts/**',
      'esbuild.js',
      'eslint.config.mjs',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/webview/**'],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/webview/**/*.ts'],
    languageOptions: {
      parserOptions: { project: './src/webview/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Prettier wraps code at 120 (.prettierrc.json, checked by npm test); what it cannot wrap is checked here: comments
    // and code stay within 140. Strings, template literals and regular expressions may run longer: the l10n keys are
    // sentences that must stay one literal for extraction (npm run l10n:export).
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'max-len': [
        'error',
        { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
  { files: ['src/**/*.ts'], plugins: { layers: layersPlugin }, rules: { 'layers/imports': 'error' } },
  { files: PURE_FEATURE_FILES, rules: { 'layers/imports': ['error', { pureModule: true }] } },
);
