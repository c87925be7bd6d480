// Starts the real Portkey gateway (@portkey-ai/gateway, child process, test/realgw/portkeyMain.mjs) in front of
// the emulator: Portkey routes each request by the user's headers `x-portkey-provider` + `x-portkey-custom-host`
// to the emulator's /v1, which plays the provider. Real sockets: client → Portkey → emulator.
import path from 'node:path';
import { defaultConfig, startEmulator, type Emulator } from '../../src/emulator';
import { startGatewayProcess } from './gatewayProcess';

export interface PortkeyGateway {
  url: string;
  emulator: Emulator;
  /** The headers a user sets for Portkey to reach the emulator as `provider`. */
  headersFor(provider: 'openai' | 'anthropic'): Record<string, string>;
  output(): string;
  close(): Promise<void>;
}

export async function startPortkey(): Promise<PortkeyGateway> {
  const config = defaultConfig();
  config.messages.tokensPerSecond = 0;
  const emulator = await startEmulator({ config });
  const gateway = await startGatewayProcess('Portkey', [path.join(__dirname, 'portkeyMain.mjs')]).catch(
    async (e: unknown) => {
      await emulator.close();
      throw e;
    },
  );
  return {
    url: gateway.url,
    emulator,
    headersFor: (provider) => ({
      'x-portkey-provider': provider,
      'x-portkey-custom-host': `${emulator.url}/v1`,
    }),
    output: gateway.output,
    close: async () => {
      await gateway.kill();
      await emulator.close();
    },
  };
}
