// Child process of the heap figure (run with --expose-gc): streams N answers through the gateway
// client, keeps them like a chat history would, and reports heap before / after a full GC.
import { createGatewayClient } from '../src/gateway';
import type { Message } from '../src/gateway/types';

async function main(): Promise<void> {
  const [url, countText, tokensText] = process.argv.slice(2);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const client = createGatewayClient({ baseUrl: url, apiKey: 'mg-demo-key-0001' });
  const history: Message[] = [];
  const ask = async (i: number) => {
    const stream = client.streamMessage({
      model: 'claude-demo-haiku',
      max_tokens: 100_000,
      messages: [{ role: 'user', content: `answer ${i} [[tokens=${tokensText}]]` }],
    });
    for await (const _event of stream) {
      /* consume like the chat view does */
    }
    history.push(await stream.finalMessage());
  };
  await ask(-1); // warm-up: code paths compiled, pools created
  history.length = 0;
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < Number(countText); i++) await ask(i);
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  const textBytes = history.reduce(
    (n, m) =>
      n +
      m.content.reduce((k, b) => k + ('text' in b && typeof b.text === 'string' ? Buffer.byteLength(b.text) : 0), 0),
    0,
  );
  process.stdout.write(JSON.stringify({ before, after, textBytes, answers: history.length }) + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
