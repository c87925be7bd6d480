// createGatewayClient: binds every route to one client context.
import { readBalance } from './balance';
import { createContext } from './context';
import { editImage, generateImage } from './images/images';
import { createMessage } from './createMessage';
import { decideDialect, planFor } from './dialects/dialectPlan';
import { completeCode } from './completion/fim';
import { listModels } from './models';
import { openMessageStream } from './stream/stream';
import { getImageTask, submitImageTask, waitForImageTask } from './images/tasks';
import type {
  GatewayClient,
  GatewayClientOptions,
  ImageEditRequest,
  ImageRequest,
  ImageTaskRef,
  RequestOptions,
} from './types';

/** Creates a gateway client. Never throws: an unusable base URL makes every call fail with its reason. */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const ctx = createContext(options);
  function submit(kind: 'generation', request: ImageRequest, o?: RequestOptions): Promise<ImageTaskRef>;
  function submit(kind: 'edit', request: ImageEditRequest, o?: RequestOptions): Promise<ImageTaskRef>;
  function submit(
    kind: 'generation' | 'edit',
    request: ImageRequest | ImageEditRequest,
    o?: RequestOptions,
  ): Promise<ImageTaskRef> {
    return submitImageTask(ctx, kind, request, o);
  }
  return {
    baseUrl: ctx.baseUrl,
    listModels: (o) => listModels(ctx, o),
    dialectFor: (model) => decideDialect(ctx, model),
    createMessage: (request, o) => createMessage(ctx, request, o, planFor(ctx, request.model)),
    streamMessage: (request, o) => openMessageStream(ctx, request, o, planFor(ctx, request.model)),
    generateImage: (request, o) => generateImage(ctx, request, o),
    editImage: (request, o) => editImage(ctx, request, o),
    submitImageTask: submit,
    getImageTask: (id, o) => getImageTask(ctx, id, o),
    waitForImageTask: (id, o) => waitForImageTask(ctx, id, o),
    completeCode: (request, o) => completeCode(ctx, request, o),
    readBalance: (route, o) => readBalance(ctx, route, o),
  };
}
