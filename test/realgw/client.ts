// Our client, configured for the real-gateway tests, and the request that picks an upstream scenario.
import {
  createGatewayClient,
  type GatewayClient,
  type GatewayClientOptions,
  type MessagesRequest,
} from '../../src/gateway';
import { GW_MODEL } from './gateway';

export const CLIENT_KEY = 'mg-realgw-client-key-0001';

export function request(scenario: string, extra: Partial<MessagesRequest> = {}): MessagesRequest {
  return { model: GW_MODEL, max_tokens: 256, messages: [{ role: 'user', content: `scenario:${scenario}` }], ...extra };
}

/** Short backoff so retried 429s stay quick; one retry so the retry itself is observable upstream. */
export function clientFor(baseUrl: string, extra: Partial<GatewayClientOptions> = {}): GatewayClient {
  return createGatewayClient({
    baseUrl,
    apiKey: CLIENT_KEY,
    timeoutMs: 15_000,
    maxRetries: 1,
    retryBackoff: { baseMs: 10, maxMs: 20 },
    ...extra,
  });
}
