// The image page's end of the one channel (../common/channel.ts), and the form kept in webview state so it survives
// the panel being hidden and the window reloading (the serializer restores the panel).
import type { MessageOf } from '../../shared/protocol/channel';
import { imagesGuard, type ImageForm, type ImagesShapes } from '../../shared/protocol/images';
import { Channel, getState, setState } from '../common/channel';

export const channel = new Channel<ImagesShapes>(imagesGuard);

export function post(message: MessageOf<ImagesShapes['toHost']>): void {
  const { type, ...fields } = message;
  channel.notify(type, fields as never);
}

export function savedForm(): ImageForm | undefined {
  const state = getState() as { form?: ImageForm } | undefined;
  return state?.form;
}

export function saveForm(form: ImageForm): void {
  setState({ form });
}
