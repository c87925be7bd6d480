// Child-process entry that runs the real third-party gateway @musistudio/llms (the fastify server behind
// claude-code-router) the way its CLI does: Server(initialConfig).start(). It runs in its own process
// because start() installs SIGINT/SIGTERM handlers that call process.exit, and so that the abort test
// sees a real connection between three processes' sockets (client → gateway → upstream).
//
// Args: argv[2] = upstream chat-completions URL. Prints one line `LISTENING <port>` when ready.
import { createRequire } from 'node:module';

interface LlmsServer {
  app: { server: { address(): { port: number } | string | null } };
  start(): Promise<void>;
}
type LlmsServerCtor = new (options: Record<string, unknown>) => LlmsServer;

const upstreamChatUrl = process.argv[2];
if (!upstreamChatUrl) throw new Error('usage: llmsMain.ts UPSTREAM_CHAT_URL');

// No type declarations ship with the package: load it untyped and describe the two members used.
const Server = (createRequire(__filename)('@musistudio/llms') as { default: LlmsServerCtor }).default;

const server = new Server({
  // Never read ./config.json or ./.env of the working tree: the whole config is here.
  useJsonFile: false,
  useEnvFile: false,
  logger: false,
  initialConfig: {
    HOST: '127.0.0.1',
    // A string: '0' picks a free port ('0' is truthy where the number 0 would fall back to 3000).
    PORT: '0',
    providers: [
      {
        name: 'up',
        // The provider URL is used as is (the full chat-completions endpoint), the key is sent as Bearer.
        api_base_url: upstreamChatUrl,
        api_key: 'sk-upstream-test-key',
        models: ['up-model'],
      },
    ],
  },
});

server
  .start()
  .then(() => {
    const address = server.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    process.stdout.write(`LISTENING ${port}\n`);
  })
  .catch((error: unknown) => {
    process.stderr.write(`gateway failed to start: ${String(error)}\n`);
    process.exit(1);
  });
