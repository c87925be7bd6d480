// Whether GET /v1/models answered a list at the current base URL: a 404 on another route is then a route
// this gateway does not offer, not a wrong base URL (docs/gateway-protocol.md#error-reactions). No request: the
// catalog's cached snapshot only.
import type { ModelCatalog } from './services';

export function listWorksAt(catalog: Partial<Pick<ModelCatalog, 'peek'>>, baseUrl: string): boolean {
  const snapshot = catalog.peek?.();
  return !!snapshot && snapshot.baseUrl === baseUrl && snapshot.fetchedAt > 0 && !snapshot.listUnavailable;
}
