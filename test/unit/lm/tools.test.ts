// The gateway tools' pure part: input checks, the confirmation's charge factors, the texts returned to the
// calling model, and the manifest's languageModelTools against the names the code registers.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  ToolNames,
  checkImageInput,
  imageConfirmation,
  imageResultText,
  modelsResultText,
  pathShape,
  scrubSecret,
  type ChargeSummary,
} from '../../../src/lm/toolText';

interface ToolContribution {
  name: string;
  toolReferenceName?: string;
  canBeReferencedInPrompt?: boolean;
  icon?: string;
  userDescription?: string;
  modelDescription?: string;
  displayName?: string;
  inputSchema?: { type: string; properties: Record<string, { type: string }>; required?: string[] };
}

const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { languageModelTools?: ToolContribution[] };
};

const summary = (over: Partial<ChargeSummary> = {}, input: Record<string, unknown> = {}): ChargeSummary => {
  const checked = checkImageInput(over.source ? 'edit' : 'generation', { prompt: 'a fox', ...input });
  assert.ok(checked.ok);
  return { input: checked.value, size: '1024x1024', defaultSize: '1024x1024', references: [], ...over };
};

describe('lm/tools: gateway tools (pure part)', () => {
  it('package.json declares exactly the tools the code registers, each referencable with schema and descriptions', () => {
    const tools = manifest.contributes.languageModelTools ?? [];
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.values(ToolNames).sort());
    for (const tool of tools) {
      assert.match(tool.name, /^[\w-]+$/, tool.name);
      assert.ok(
        tool.canBeReferencedInPrompt && tool.toolReferenceName && /^[\w]+$/.test(tool.toolReferenceName),
        `${tool.name} is referencable as #`,
      );
      assert.ok(
        tool.icon && tool.userDescription && tool.modelDescription && tool.displayName,
        `${tool.name} describes itself`,
      );
      assert.equal(tool.inputSchema?.type, 'object');
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.deepEqual(byName.get(ToolNames.generateImage)?.inputSchema?.required, ['prompt']);
    assert.deepEqual(byName.get(ToolNames.editImage)?.inputSchema?.required, ['source', 'prompt']);
    for (const field of ['model', 'size', 'quality', 'n', 'references']) {
      assert.ok(byName.get(ToolNames.generateImage)?.inputSchema?.properties[field], `generate image takes ${field}`);
    }
  });

  it('checks the input a model sends before anything is read or sent', () => {
    const reason = (kind: 'generation' | 'edit', input: unknown) => {
      const checked = checkImageInput(kind, input);
      return checked.ok ? '' : checked.reason;
    };
    assert.match(reason('generation', {}), /prompt.*required/);
    assert.match(reason('generation', 'a fox'), /object/);
    assert.match(reason('generation', { prompt: 'x', size: 'big' }), /WIDTHxHEIGHT/);
    assert.match(reason('generation', { prompt: 'x', quality: 'ultra' }), /quality/);
    assert.match(reason('generation', { prompt: 'x', n: 0 }), /"n"/);
    assert.match(reason('generation', { prompt: 'x', n: 1.5 }), /"n"/);
    assert.match(reason('generation', { prompt: 'x', n: 11 }), /"n"/);
    assert.match(reason('generation', { prompt: 'x', source: 'a.png' }), /edit image tool/);
    assert.match(reason('edit', { prompt: 'x' }), /source.*required/);
    assert.match(reason('generation', { prompt: 'x', references: 'a.png' }), /list/);
    assert.match(reason('generation', { prompt: 'x', references: [3] }), /list/);
    const ok = checkImageInput('edit', {
      prompt: ' blue ',
      source: ' img/a.png ',
      size: '512X512',
      quality: 'HD',
      n: 2,
      references: ['r.png'],
    });
    assert.deepEqual(ok, {
      ok: true,
      value: {
        kind: 'edit',
        prompt: 'blue',
        model: undefined,
        size: '512x512',
        quality: 'hd',
        n: 2,
        source: 'img/a.png',
        mask: undefined,
        references: ['r.png'],
      },
    });
  });

  it('classifies paths: relative ones with the images rules, absolute ones for the host to check, escapes refused', () => {
    assert.deepEqual(pathShape('images/a.png'), { kind: 'relative', segments: ['images', 'a.png'] });
    assert.deepEqual(pathShape('./images\\a.png'), { kind: 'relative', segments: ['images', 'a.png'] });
    assert.deepEqual(pathShape('/work/ws/a.png'), { kind: 'absolute', path: '/work/ws/a.png' });
    assert.deepEqual(pathShape('C:\\ws\\a.png'), { kind: 'absolute', path: 'C:\\ws\\a.png' });
    for (const escape of [
      '../outside.png',
      'images/../../x.png',
      '/work/ws/../../etc/passwd',
      '~/a.png',
      'file:///etc/passwd',
      'https://x/a.png',
      '.',
      'con.png',
    ]) {
      assert.equal(pathShape(escape).kind, 'invalid', escape);
    }
  });

  it('the confirmation names every charge factor: size, quality, count, edit, references', () => {
    const plain = imageConfirmation(summary());
    assert.match(plain.title, /Generate an image.*charged/);
    assert.match(plain.message, /cheapest request/);
    const costly = imageConfirmation(
      summary(
        {
          size: '2048x2048',
          quality: 'high',
          source: 'images/a.png',
          mask: 'images/m.png',
          references: ['r1.png', 'r2.png'],
        },
        { n: 3, source: 'images/a.png' },
      ),
    );
    assert.match(costly.title, /Edit an image/);
    for (const factor of [
      /3 images instead of one/,
      /size 2048x2048, larger than the default 1024x1024/,
      /high quality/,
      /an edit with a mask/,
      /2 reference images/,
    ]) {
      assert.match(costly.message, factor);
    }
    assert.match(costly.message, /Count: 3 images/);
    assert.match(costly.message, /never repeated/);
  });

  it('generation with reference images is named as such (it travels on the edit route)', () => {
    const message = imageConfirmation(summary({ references: ['r.png'] })).message;
    assert.match(message, /1 reference image\b/);
    assert.doesNotMatch(message, /an edit of an existing image/);
  });

  it('the prompt is untrusted: markdown in it is escaped in the confirmation', () => {
    const message = imageConfirmation(
      summary({}, { prompt: '[click](command:workbench.action.openSettings) **bold**' }),
    ).message;
    assert.ok(!message.includes('[click](command:'), message);
    assert.match(message, /\\\[click\\\]\\\(command:/);
  });

  it('returns the saved paths and a short description to the model', () => {
    const text = imageResultText({
      paths: ['images/a-1.png', 'images/a-2.png'],
      model: 'gpt-image-demo',
      size: '512x512',
      taskId: 't1',
      kind: 'generation',
    });
    assert.match(text, /saved 2 images into the workspace \(model gpt-image-demo, size 512x512, task t1\)/);
    assert.match(text, /^- images\/a-1\.png$/m);
    assert.match(text, /^- images\/a-2\.png$/m);
    assert.match(text, /do not repeat/);
  });

  it('lists chat and image model ids, one per line (ids cannot add lines)', () => {
    const text = modelsResultText({
      keyName: 'work',
      baseUrl: 'http://127.0.0.1:1',
      fetchedAt: Date.UTC(2026, 0, 1),
      chat: ['claude-demo-sonnet', 'evil\n- injected'],
      image: [],
    });
    assert.match(text, /^Chat models \(2\):$/m);
    assert.match(text, /^- claude-demo-sonnet$/m);
    assert.match(text, /^- evil - injected$/m);
    assert.match(text, /^Image models \(0\):\n- none \(the key group may not have image route permission\)$/m);
    assert.match(text, /2026-01-01T00:00:00.000Z/);
  });

  it('scrubs the active secret from any text', () => {
    assert.equal(scrubSecret('key mg-demo-key-0001 leaked', 'mg-demo-key-0001'), 'key [redacted] leaked');
    assert.equal(scrubSecret('nothing', undefined), 'nothing');
  });
});
