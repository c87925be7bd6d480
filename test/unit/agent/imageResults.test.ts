// A tool result that holds an image (read_file on a PNG): sent as the image block to a model that reads images,
// replaced by a sentence for one that does not (the loop's `vision: false`).
import * as assert from 'node:assert/strict';
import { runAgentTurn, type Tool } from '../../../src/agent';
import { pngBytes } from '../../support/imageBytes';
import { goTurnOptions } from './turnOptions';
import { lastToolResults, text, toolUse, scriptedGatewayPerTest } from './scriptedGateway';

describe('agent: images in tool results', () => {
  const startGateway = scriptedGatewayPerTest();
  const data = pngBytes(30, 20).toString('base64');
  const readImage: Tool = {
    name: 'read_file',
    description: 'Read a file.',
    approvalClass: 'read',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    target: () => ({ paths: ['/ws/shot.png'], summary: 'shot.png' }),
    invoke: async () => ({
      content: [
        { type: 'text', text: '[shot.png: image/png image, 30×20 px]' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
      ],
    }),
  };

  async function turn(vision: boolean | undefined) {
    const gw = await startGateway((_req, n) =>
      n === 1
        ? { kind: 'message', blocks: [toolUse('t1', 'read_file', { path: 'shot.png' })] }
        : { kind: 'message', blocks: [text('done')] },
    );
    const result = await runAgentTurn(goTurnOptions(gw, [readImage], vision === undefined ? {} : { vision }));
    assert.equal(result.reason, 'end_turn');
    return lastToolResults(gw.bodies[1])[0];
  }

  it('a model that reads images gets the image block', async () => {
    const result = await turn(true);
    assert.deepEqual(result.content, [
      { type: 'text', text: '[shot.png: image/png image, 30×20 px]' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
    ]);
  });

  it('without a word on vision the image is sent (the gateway has the last word)', async () => {
    const result = await turn(undefined);
    assert.ok(Array.isArray(result.content) && result.content.some((b) => b.type === 'image'));
  });

  it('a model that does not gets a plain sentence instead, and no bytes', async () => {
    const result = await turn(false);
    assert.equal(typeof result.content, 'string');
    assert.match(
      String(result.content),
      /^\[shot\.png: image\/png image, 30×20 px\]\n\[This is an image\. The model answering does not read images/,
    );
    assert.ok(!JSON.stringify(result).includes(data.slice(0, 50)));
  });
});
