// Packages the bundled in-host suite as a test-only VS Code extension ("model-gateway.host-tests").
// Its main is test/host/index.ts's bundle: on startup it runs every bundled *.test.js when MG_HOST_TESTS
// is set, and writes MG_HOST_RESULTS. Used where the `payload` extensionTestsPath route does not load the
// dev extension (VS Code 1.139.1 in code-server). The product VSIX stays free of test code.
import fs from 'node:fs';
import path from 'node:path';
import { run } from './proc.mjs';

/** Builds <workDir>/host-tests.vsix from the bundles in bundleDir; returns its path. */
export async function packageHostRunner(root, bundleDir, workDir) {
  const product = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const ext = path.join(workDir, 'host-runner');
  fs.rmSync(ext, { recursive: true, force: true });
  fs.mkdirSync(ext, { recursive: true });
  for (const f of fs.readdirSync(bundleDir)) {
    if (f.endsWith('.js')) fs.copyFileSync(path.join(bundleDir, f), path.join(ext, f));
  }
  const manifest = {
    name: 'host-tests',
    displayName: 'Model Gateway host tests (test only)',
    description: 'Runs the Model Gateway in-host mocha suite when MG_HOST_TESTS is set.',
    version: product.version,
    publisher: product.publisher,
    license: 'MIT',
    engines: { vscode: product.engines.vscode },
    main: './index.js',
    activationEvents: ['onStartupFinished'],
    extensionDependencies: [`${product.publisher}.${product.name}`],
    repository: product.repository,
    // A tool of "another extension" for test/host/gatewayAgent.test.ts (vscode.lm.registerTool needs the declaration).
    contributes: {
      languageModelTools: [
        {
          name: 'modelGatewayTest_echo',
          displayName: 'Echo (Model Gateway host tests)',
          toolReferenceName: 'modelGatewayTestEcho',
          canBeReferencedInPrompt: true,
          modelDescription: 'Test-only: returns its text input. With wait: true it runs until cancelled.',
          inputSchema: {
            type: 'object',
            properties: { text: { type: 'string' }, wait: { type: 'boolean' }, path: { type: 'string' } },
            required: ['text'],
          },
        },
      ],
    },
  };
  fs.writeFileSync(path.join(ext, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(
    path.join(ext, 'README.md'),
    '# Model Gateway host tests\n\nTest-only extension built by scripts/test.mjs.\n',
  );
  fs.writeFileSync(path.join(ext, 'LICENSE'), 'MIT\n');
  fs.writeFileSync(path.join(ext, '.vscodeignore'), '');
  const vsix = path.join(workDir, 'host-tests.vsix');
  const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  await run(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--out', vsix], {
    cwd: ext,
    quiet: true,
  });
  return vsix;
}
