// Expecting a promise to fail: the one helper for "this call must reject, and with what". Pure Node (no vscode).
import { strict as assert } from 'node:assert';
import { isGatewayError, type GatewayError } from '../../src/gateway/errors/errors';

/** What `p` rejects with; fails the test if `p` resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  let resolved = false;
  const error = await p.then(
    () => {
      resolved = true;
    },
    (e: unknown) => e,
  );
  if (resolved) assert.fail('expected a failure, the promise resolved');
  return error;
}

/** The GatewayError `p` rejects with; fails the test if `p` resolves or rejects with anything else. */
export async function failure(p: Promise<unknown>): Promise<GatewayError> {
  const error = await rejection(p);
  assert.ok(isGatewayError(error), `expected a GatewayError, got ${String(error)}`);
  return error;
}
