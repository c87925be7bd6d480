// The webview side of the protocol: typed post, host messages, and the form kept in webview state so
// it survives the panel being hidden and the window reloading (the serializer restores the panel).
import type { HostToImagesMessage, ImageForm, ImagesToHostMessage } from '../../shared/protocol/images';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

export function post(message: ImagesToHostMessage): void {
  vscode.postMessage(message);
}

export function onHostMessage(handler: (message: HostToImagesMessage) => void): void {
  window.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: unknown } | null;
    if (data && typeof data.type === 'string') handler(data as HostToImagesMessage);
  });
}

export function savedForm(): ImageForm | undefined {
  const state = vscode.getState() as { form?: ImageForm } | undefined;
  return state?.form;
}

export function saveForm(form: ImageForm): void {
  vscode.setState({ form });
}
