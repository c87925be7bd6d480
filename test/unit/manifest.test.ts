// The manifest (package.json) agrees with the code and with the harness: command ids both ways,
// settings documented, lazy activation, engines.vscode = the lowest VS Code the harness really runs.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Commands, Views } from '../../src/shared/commands';

const root = path.resolve(__dirname, '..', '..');

interface Manifest {
  engines: { vscode: string };
  activationEvents?: string[];
  main: string;
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration:
      | { properties: Record<string, { markdownDescription?: string; description?: string }> }
      | { properties: Record<string, { markdownDescription?: string }> }[];
    viewsContainers?: { activitybar?: { id: string; title: string }[] };
    views?: Record<string, { id: string; type?: string }[]>;
  };
}

// As VS Code shows it in English: the user-visible strings are "%key%" placeholders filled from package.nls.json.
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'), (_key, value: unknown) =>
  typeof value === 'string' && /^%[^%\s]+%$/.test(value) && value.slice(1, -1) in nls ? nls[value.slice(1, -1)] : value,
) as Manifest;
const harnessVersions = Object.keys(
  JSON.parse(fs.readFileSync(path.join(root, 'scripts', 'vscode-versions.json'), 'utf8')) as Record<string, unknown>,
);

function settings(): [string, { markdownDescription?: string }][] {
  const config = manifest.contributes.configuration;
  const blocks = Array.isArray(config) ? config : [config];
  return blocks.flatMap((b) => Object.entries(b.properties));
}

function compare(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

describe('package.json manifest', () => {
  it('declares every command id of src/shared/commands.ts', () => {
    const declared = new Set(manifest.contributes.commands.map((c) => c.command));
    assert.deepStrictEqual(
      Object.values(Commands).filter((id) => !declared.has(id)),
      [],
    );
  });

  it('declares no command that the code does not know', () => {
    const known = new Set<string>(Object.values(Commands));
    assert.deepStrictEqual(
      manifest.contributes.commands.map((c) => c.command).filter((id) => !known.has(id)),
      [],
    );
  });

  it('gives every command a title and the "Model Gateway" category', () => {
    const bad = manifest.contributes.commands.filter((c) => !c.title || c.category !== 'Model Gateway');
    assert.deepStrictEqual(
      bad.map((c) => c.command),
      [],
    );
  });

  it('documents every setting with a markdownDescription, all under modelGateway.', () => {
    const all = settings();
    assert.ok(all.length > 0);
    assert.deepStrictEqual(
      all.filter(([, s]) => !s.markdownDescription?.trim()).map(([k]) => k),
      [],
    );
    assert.deepStrictEqual(
      all.filter(([k]) => !k.startsWith('modelGateway.')).map(([k]) => k),
      [],
    );
  });

  it('activates lazily (no "*")', () => {
    assert.ok(!(manifest.activationEvents ?? []).includes('*'));
  });

  it('targets the lowest VS Code the harness runs', () => {
    const lowest = [...harnessVersions].sort(compare)[0];
    const [major, minor] = lowest.split('.');
    assert.strictEqual(manifest.engines.vscode, `^${major}.${minor}.0`);
  });

  it('contributes the activity-bar container with the chat webview view', () => {
    const container = manifest.contributes.viewsContainers?.activitybar?.find((c) => c.id === Views.container);
    assert.strictEqual(container?.title, 'Model Gateway');
    const chat = manifest.contributes.views?.[Views.container]?.find((v) => v.id === Views.chat);
    assert.strictEqual(chat?.type, 'webview');
  });

  it('points main at the esbuild bundle that .vscodeignore ships', () => {
    assert.strictEqual(manifest.main, './dist/extension.js');
    const ignore = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!dist\/extension\.js$/m);
  });
});
