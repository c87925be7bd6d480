import fs from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/ (docs/architecture.md#layers): each folder names the folders it may import from. Imports point
 * down this table only: shared ← gateway, agent ← platform ← catalog, keys ← features ← extension.ts / services.ts.
 * `pure` folders never import `vscode`. A feature folder with a `glue` sub-folder is pure outside it: its VS Code glue
 * (register.ts, view providers, host actions) lives there, and the rest runs in plain Node (unit-tested there) and
 * never imports the glue. A folder that is not listed here fails test/unit/layers.test.ts.
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
  chat: {
    pure: false,
    glue: 'host',
    imports: ['shared', 'storage', 'gateway', 'platform', 'catalog', 'agent', 'agentHost'],
  },
  lm: {
    pure: false,
    glue: 'host',
    imports: ['shared', 'gateway', 'platform', 'catalog', 'images', 'agent', 'agentHost'],
  },
  usage: { pure: false, glue: 'host', imports: ['shared', 'storage', 'gateway', 'platform', 'catalog'] },
  completions: {
    pure: false,
    glue: 'host',
    imports: ['shared', 'gateway', 'platform', 'catalog', 'agent', 'agentHost', 'usage'],
  },
};

const SRC = path.join(import.meta.dirname, 'src');

/** Whether a file of a layer with a glue sub-folder is inside it (src/chat/host/register.ts). */
function inGlue(file, folder) {
  const glue = LAYERS[folder]?.glue;
  return glue !== undefined && path.relative(path.join(SRC, folder), file).split(path.sep)[0] === glue;
}

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
 * `layers/imports`: resolves every relative import of a src/ file and checks it against LAYERS (and, outside the glue
 * sub-folder of a feature folder, against that glue). Path-based, so folder names inside paths
 * (src/shared/protocol/chat.ts) are not mistaken for the chat feature.
 */
export const layersPlugin = {
  rules: {
    imports: {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const from = topFolder(context.filename);
        const layer = from ? LAYERS[from] : undefined;
        // Outside its glue sub-folder a feature folder is pure.
        const pureOutsideGlue = layer?.glue !== undefined && !inGlue(context.filename, from);
        const check = (node, source) => {
          if (typeof source !== 'string') return;
          if (source === 'vscode' && layer?.pure) {
            context.report({ node, message: `src/${from} is pure: no vscode import (docs/architecture.md#layers).` });
            return;
          }
          if (source === 'vscode' && pureOutsideGlue) {
            context.report({
              node,
              message: `src/${from} is pure outside src/${from}/${layer.glue}/: no vscode import (docs/architecture.md#layers).`,
            });
            return;
          }
          if (!source.startsWith('.') || from === undefined) return;
          const target = path.resolve(path.dirname(context.filename), source);
          const to = topFolder(target);
          if (to === undefined || to === from) {
            if (pureOutsideGlue && to === from && inGlue(target, from)) {
              context.report({
                node,
                message: `src/${from} outside ${layer.glue}/ is pure: it may not import its VS Code glue ${source}.`,
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
);
