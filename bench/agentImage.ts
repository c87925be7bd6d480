// One image in a 10-step agent turn (issue 36): a scaled screenshot attached to the question in Agent mode, then nine
// read_file steps and the answer (10 requests), through the real SessionController, AgentTurns, loop, image store and
// gateway client against the emulator on 127.0.0.1 (Messages, prompt caching on). The emulator counts an image as
// Anthropic documents it (w × h / 750) and accounts the cache as upstream does (src/emulator/promptCache.ts); its
// request log names each request's images. Baseline in the same run: the same turn without the image (a fresh
// emulator), so the image's share of each step is the difference. Reported: the image's copies per request, and the
// steps in which the image was billed at full price (uncached input or a cache write) rather than read from the cache.
// Run alone: npx tsx bench/agentImage.ts
import { AgentTurns } from '../src/chat/agent/agentTurn';
import { readOnlyAgentHost } from './readOnlyAgentHost';
import { imageAttachment } from '../src/chat/composer/imageAttachment';
import { ImageStore, type ImageStorage } from '../src/chat/store/imageStore';
import { SessionController } from '../src/chat/session/session';
import { defaultConfig, startEmulator } from '../src/emulator';
import type { RequestLogEntry } from '../src/emulator/types';
import { createGatewayClient } from '../src/gateway';
import type { ChatAttachment } from '../src/shared/protocol/chat';
import { pngBytes } from '../test/support/imageBytes';
import { runAndPrintRows } from './runAndPrintRows';
import type { BenchRow } from './table';

const STEPS = 9; // tool steps; with the final answer, 10 requests
const FILE = 'export const value = 1; // a line of a source file, padded to about sixty bytes long\n'.repeat(60);
/** What the page hands over for a pasted 4000×3000 screenshot: 1238×928 pixels. */
const IMAGE = pngBytes(1238, 928);

function memoryImages(): ImageStorage {
  const files = new Map<string, Uint8Array>();
  return {
    read: async (name) => files.get(name),
    write: async (name, bytes) => void files.set(name, bytes),
    remove: async (name) => void files.delete(name),
    list: async () => [...files.keys()].map((name) => ({ name, mtime: 0 })),
  };
}

/** One agent turn in a fresh session and emulator; the emulator's log of its /v1/messages requests. */
async function turn(withImage: boolean): Promise<RequestLogEntry[]> {
  const config = defaultConfig();
  config.messages.tokensPerSecond = 0;
  const emu = await startEmulator({ config });
  const client = createGatewayClient({ baseUrl: emu.url, apiKey: 'mg-agent-key-0008', maxRetries: 0 });
  const { host, state } = readOnlyAgentHost('/ws/app.ts', FILE);
  const agent = new AgentTurns({
    host,
    state,
    client: async () => ({ client, keyId: 'bench' }),
    condenseThreshold: () => 0.8,
  });
  const files = new Map<string, string>();
  const images = new ImageStore(memoryImages());
  let id = 0;
  let finished = false;
  const s = new SessionController({
    storage: {
      read: async (n) => files.get(n),
      write: async (n, d) => void files.set(n, d),
      remove: async (n) => void files.delete(n),
    },
    getClient: async () => undefined,
    errorCard: () => ({ title: 'error', detail: '', actions: [] }),
    defaults: () => ({ model: 'claude-demo-agent', maxTokens: 1024, systemPrompt: '' }),
    post: (m) => {
      if (m.type === 'streamFinished') finished = true;
    },
    setBusy: () => undefined,
    newId: () => `b${id++}`,
    now: () => Date.now(),
    agent,
    images,
  });
  try {
    await s.load();
    s.setMode('agent');
    if (withImage) {
      const params = {
        name: 'error dialog.png',
        data: IMAGE.toString('base64'),
        thumbnail: 'data:image/png;base64,AAAA',
      };
      const chip = await imageAttachment('img1', params, images, 0);
      if ('refusal' in chip) throw new Error(chip.refusal);
      s.addAttachment(chip as ChatAttachment);
    }
    const refusal = s.send(
      `Find what the dialog's error comes from.\n@tool read_file {"path":"app.ts"}\n@steps ${STEPS}`,
    );
    if (refusal) throw new Error(refusal);
    while (!finished) await new Promise((r) => setTimeout(r, 5));
    const sent = emu.requests().filter((r) => r.path.startsWith('/v1/messages'));
    if (sent.length !== STEPS + 1 || sent.some((r) => r.status !== 200))
      throw new Error(`the turn made ${sent.length} requests: ${sent.map((r) => r.status).join(', ')}`);
    return sent;
  } finally {
    await emu.close();
  }
}

export async function runAgentImageBench(): Promise<BenchRow[]> {
  const without = await turn(false);
  const withImage = await turn(true);
  const tokens = Math.ceil((1238 * 928) / 750);
  // The image is in the question, the first request's whole input (tools, system, question): a later step reads it
  // from the cache when it reads at least that prefix, and otherwise pays for it in full (uncached or written again).
  const total = (r: RequestLogEntry) => (r.usage ? r.usage.input + r.usage.cacheWrite + r.usage.cacheRead : 0);
  const prefix = total(withImage[0]);
  const fullSteps = withImage.filter((r) => (r.usage?.cacheRead ?? 0) < prefix).map((_r, i) => i + 1);
  if (process.env.MG_BENCH_DEBUG)
    for (const [i, r] of withImage.entries())
      console.error(i, JSON.stringify(r.usage), JSON.stringify(without[i].usage));
  const copies = withImage.map((r) => r.images?.length ?? 0);
  const priced = (rows: RequestLogEntry[]) => rows.reduce((n, r) => n + (r.usage?.inputCostTokens ?? 0), 0);
  const extra = priced(withImage) - priced(without);
  return [
    {
      figure: '10-step agent turn with one image: copies of the image per request',
      baseline: 'at most 1',
      value: `${Math.max(...copies)} (${copies.join(' ')})`,
      target: '≤ 1 per request',
      met: Math.max(...copies) <= 1 && Math.min(...copies) === 1,
      note: 'the emulator’s request log of each of the 10 /v1/messages requests',
    },
    {
      figure: '10-step agent turn with one image: steps billing the image at full price (Messages, prompt caching)',
      baseline: `the same turn without the image, same run (the image: ${tokens.toLocaleString('en-US')} tokens)`,
      value: `${fullSteps.length} of ${withImage.length} (step ${fullSteps.join(', ')}); read from the cache in the others`,
      target: '≤ 2 of 10',
      met: fullSteps.length <= 2,
      note: `a step reads the image when it reads at least the first request's ${prefix.toLocaleString('en-US')} tokens (tools, system, the question with the image); the turn's input priced (writes 1.25×, reads 0.1×) grows by ${Math.round(extra).toLocaleString('en-US')} token-equivalents with the image, ${((100 * extra) / (tokens * withImage.length)).toFixed(1)} % of sending it uncached in every step`,
    },
  ];
}

if (require.main === module) runAndPrintRows(runAgentImageBench);
