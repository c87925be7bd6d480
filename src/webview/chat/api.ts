// The chat page's end of the one channel (../common/channel.ts): requests to the host and the draft kept in webview state.
import { chatGuard, type ChatShapes, type WebviewToHostMessage } from '../../shared/protocol/chat';
import { Channel, getState, RequestError, setState } from '../common/channel';

export const channel = new Channel<ChatShapes>(chatGuard);

/** A request as the page writes it: its type and params (the channel adds the request id). */
type Outgoing = WebviewToHostMessage extends infer M
  ? M extends { requestId: string }
    ? Omit<M, 'requestId'>
    : never
  : never;

export interface DraftState {
  draft?: string;
  showConversations?: boolean;
}

let showRefusal: (text: string) => void = () => undefined;

/** Where a refused request's words go (the notice above the composer). */
export function onRefusal(show: (text: string) => void): void {
  showRefusal = show;
}

/** Shows a sentence where refusals go (the page's own problems: an image it could not read). */
export function showNotice(text: string): void {
  showRefusal(text);
}

/** Sends a request whose effect comes back as host messages; a refusal is shown. */
export function post(message: Outgoing): void {
  const { type, ...params } = message;
  channel.request(type, params as never).catch((error: unknown) => {
    if (error instanceof RequestError && error.message) showRefusal(error.message);
  });
}

/** Only the draft and UI toggles live in the webview state; conversations live in the host. */
export function loadDraft(): DraftState {
  const state = getState();
  return state && typeof state === 'object' ? (state as DraftState) : {};
}

export function saveDraft(state: DraftState): void {
  setState(state);
}
