// Pure: runs one streamed /v1/messages request and ties it to a cancellation token, so that cancelling
// closes the socket at once (the gateway stops generating and billing) instead of only ignoring the rest.
// The token is structural (VS Code's CancellationToken fits), so this module needs no `vscode` import.
import type { GatewayClient, Message, MessagesRequest, StreamEvent } from '../gateway/types';
import type { WaitListener, WaitNotice } from '../gateway/retry';
import { english, type Localizer } from '../shared/l10n';

/** "Rate limited by the gateway: sending in 12 s…" (the progress line of a wait). */
export function waitMessage(notice: WaitNotice, l10n: Localizer = english): string {
  const seconds = Math.max(1, Math.ceil(notice.ms / 1000));
  return notice.reason === 'rate_limited'
    ? l10n.t('Rate limited by the gateway (429): sending in {0} s… (stop to cancel)', seconds)
    : l10n.t('Retrying in {0} s… (stop to cancel)', seconds);
}

export interface CancellationLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

/** Streams the request, calling onEvent per raw event; resolves with the final message. Rejects with GatewayError. */
export async function streamWithCancellation(
  client: GatewayClient,
  request: MessagesRequest,
  token: CancellationLike,
  onEvent: (event: StreamEvent) => void,
  /** Waits before the request goes out (429 Retry-After): shown to the user; the token cancels them too. */
  onWait?: WaitListener,
): Promise<Message> {
  const controller = new AbortController();
  const stream = client.streamMessage(request, { signal: controller.signal, onWait, usageKind: 'vscode-chat' });
  const cancel = (): void => {
    stream.abort();
    controller.abort();
  };
  const subscription = token.onCancellationRequested(cancel);
  if (token.isCancellationRequested) cancel();
  try {
    for await (const event of stream) onEvent(event);
    return await stream.finalMessage();
  } finally {
    subscription.dispose();
  }
}
