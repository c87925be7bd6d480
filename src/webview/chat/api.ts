// The webview's only channel: acquireVsCodeApi().postMessage with typed messages and request ids.
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../shared/protocol/chat';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

type Outgoing = WebviewToHostMessage extends infer M ? (M extends { requestId: string } ? Omit<M, 'requestId'> : never) : never;

export interface DraftState {
  draft?: string;
  showConversations?: boolean;
}

let counter = 0;
const api = acquireVsCodeApi();

/** Posts a message to the host with a fresh request id; returns the id. */
export function post(message: Outgoing): string {
  const requestId = `r${Date.now().toString(36)}-${(counter++).toString(36)}`;
  api.postMessage({ ...message, requestId });
  return requestId;
}

export function onHostMessage(handler: (message: HostToWebviewMessage) => void): void {
  window.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as HostToWebviewMessage | undefined;
    if (data && typeof data === 'object' && typeof data.type === 'string') handler(data);
  });
}

/** Only the draft and UI toggles live in the webview state; conversations live in the host. */
export function loadDraft(): DraftState {
  const state = api.getState();
  return state && typeof state === 'object' ? (state as DraftState) : {};
}

export function saveDraft(state: DraftState): void {
  api.setState(state);
}
