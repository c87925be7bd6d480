import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

// These src/lm modules must stay free of the `vscode` module (they run in plain node, in these tests).
const PURE = ['requestMapping.ts', 'streamMapping.ts', 'tokens.ts', 'modelInfo.ts', 'lmErrors.ts', 'participantText.ts', 'streaming.ts', 'chatMarkdown.ts'];

describe('lm: pure modules', () => {
  for (const file of PURE) {
    it(`${file} imports neither vscode nor a module that does`, () => {
      const source = readFileSync(path.join(__dirname, '../../../src/lm', file), 'utf8');
      assert.ok(!/from ['"]vscode['"]|require\(['"]vscode['"]\)/.test(source), `${file} imports vscode`);
      for (const match of source.matchAll(/from ['"]\.\/([\w]+)['"]/g)) {
        assert.ok(PURE.includes(`${match[1]}.ts`), `${file} imports ./${match[1]}, which is not in the pure list`);
      }
    });
  }
});
