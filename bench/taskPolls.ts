// Figure: polls needed for an async image task that runs 30 s with Retry-After 3 (minimum 10).
import { startEmulator, defaultConfig } from '../src/emulator';
import { createGatewayClient } from '../src/gateway';
import type { BenchRow } from './table';

export async function runTaskPollBench(durationMs = 30_000, retryAfterSec = 3): Promise<BenchRow[]> {
  const config = defaultConfig();
  config.tasks = { ...config.tasks, durationMs, retryAfterSec };
  const emulator = await startEmulator({ port: 0, config });
  try {
    const client = createGatewayClient({ baseUrl: emulator.url, apiKey: 'mg-demo-key-0001' });
    const ref = await client.submitImageTask('generation', {
      model: 'gpt-image-demo',
      prompt: 'a lighthouse at dusk',
      size: '256x256',
    });
    const started = Date.now();
    const task = await client.waitForImageTask(ref.id, { pollUrl: ref.pollUrl });
    const elapsed = Date.now() - started;
    const polls = emulator.requests().filter((r) => r.method === 'GET' && r.path.includes('/v1/images/tasks/')).length;
    const minimum = Math.ceil(durationMs / (retryAfterSec * 1000)) + 1;
    return [
      {
        figure: `async image task of ${durationMs / 1000} s, Retry-After ${retryAfterSec}`,
        baseline: `minimum polls (${minimum - 1}..${minimum})`,
        value: `${polls} polls, ${(elapsed / 1000).toFixed(1)} s to ${task.status}`,
        target: `≤ ${minimum + 1} polls`,
        met: polls <= minimum + 1 && task.status === 'succeeded',
      },
    ];
  } finally {
    await emulator.close();
  }
}
