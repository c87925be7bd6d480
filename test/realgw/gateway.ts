// Starts the upstream (in this process) and the real gateway (a child process) for a suite.
import path from 'node:path';
import { startUpstream, type Upstream } from './upstream';
import { startGatewayProcess } from './gatewayProcess';

/** The model id the client sends: this gateway routes on `provider,model`. */
export const GW_MODEL = 'up,up-model';

export interface RealGateway {
  /** Base URL for our client (site root of the gateway). */
  url: string;
  upstream: Upstream;
  /** Everything the gateway printed (stderr and stdout), for failure messages. */
  output(): string;
  close(): Promise<void>;
}

export async function startRealGateway(): Promise<RealGateway> {
  const upstream = await startUpstream();
  const gateway = await startGatewayProcess('gateway', [
    '--require',
    'tsx/cjs',
    path.join(__dirname, 'llmsMain.ts'),
    upstream.chatUrl,
  ]).catch(async (e: unknown) => {
    await upstream.close();
    throw e;
  });
  return {
    url: gateway.url,
    upstream,
    output: gateway.output,
    close: async () => {
      await gateway.kill();
      await upstream.close();
    },
  };
}

/** Starts the upstream and the gateway for a suite (before) and stops both (after). */
export function useRealGateway(): () => RealGateway {
  let gw: RealGateway | undefined;
  before(async function () {
    this.timeout(30_000);
    gw = await startRealGateway();
  });
  after(async () => {
    await gw?.close();
  });
  beforeEach(() => {
    gw?.upstream.requests.splice(0);
  });
  return () => gw!;
}
