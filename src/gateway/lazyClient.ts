// The gateway client's code (requests, SSE, assembly, images, tasks) is loaded with the first client, not when
// the extension loads: the extension bundles require it from dist/vendor/gateway.js (esbuild.js), like undici.
// Plain Node (tests, the emulator's tools) resolves the same require to ./client.
import type * as Client from './client';
import type { GatewayClient, GatewayClientOptions } from './types';

let loaded: typeof Client | undefined;

export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./client') as typeof Client;
  return loaded.createGatewayClient(options);
}
