// The palette steps of Generate / Edit Image: prompt, model (image models only: docs/gateway-protocol.md#model-permission),
// size (one image at the default size first: the spec's advice for a first call), edit inputs.
import * as vscode from 'vscode';
import type { Services } from '../platform/services';
import { compareSize } from '../shared/imageCost';
import { LAST_SIZE_KEY, type ImageRunner } from './runner';

export const COMMON_SIZES = ['1024x1024', '1024x1536', '1536x1024', '1792x1024', '1024x1792', '512x512', '256x256'];

export async function askPrompt(step: string, value?: string): Promise<string | undefined> {
  const prompt = await vscode.window.showInputBox({
    title: step,
    prompt: vscode.l10n.t('Describe the image'),
    placeHolder: vscode.l10n.t('A watercolor lighthouse at dusk'),
    value,
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() ? undefined : vscode.l10n.t('Enter a prompt.')),
  });
  return prompt?.trim() || undefined;
}

/** Image models of the catalog, the default first; undefined when cancelled or none. */
export async function pickModel(services: Services, runner: ImageRunner, step: string): Promise<string | undefined> {
  let models: string[];
  try {
    models = await runner.imageModelIds();
  } catch (error) {
    await services.errors.show(error, 'models');
    return undefined;
  }
  if (models.length === 0) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        'Model Gateway: GET /v1/models returns no image models for this key. Its key group may not have image route permission; check it in the console.',
      ),
    );
    return undefined;
  }
  const preferred = runner.defaultModel(models);
  const ordered = [...models].sort((a, b) => Number(b === preferred) - Number(a === preferred));
  const picked = await vscode.window.showQuickPick(
    ordered.map((id) => ({ label: id, description: id === preferred ? vscode.l10n.t('default') : undefined })),
    { title: step, placeHolder: vscode.l10n.t('Image model (from GET /v1/models for your key)'), ignoreFocusOut: true },
  );
  return picked?.label;
}

/** Sizes with the configured default first; sizes larger than it (or not comparable) are marked as possibly costlier. */
export async function pickSize(services: Services, step: string): Promise<string | undefined> {
  const defaultSize = services.config.current.images.defaultSize;
  const last = services.context.globalState.get<string>(LAST_SIZE_KEY);
  const sizes = [
    defaultSize,
    ...(last && last !== defaultSize ? [last] : []),
    ...COMMON_SIZES.filter((s) => s !== defaultSize && s !== last),
  ];
  const items = sizes.map((size) => ({
    label: size,
    description:
      size === defaultSize
        ? vscode.l10n.t('default: one image at the default size (advised first call)')
        : size === last
          ? vscode.l10n.t('last used')
          : undefined,
    detail: sizeDetail(compareSize(size, defaultSize)),
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: step,
    placeHolder: vscode.l10n.t('Image size'),
    ignoreFocusOut: true,
  });
  return picked?.label;
}

/** What a size means for the price, against the default: only a larger (or unknown) one may cost more. */
function sizeDetail(compared: ReturnType<typeof compareSize>): string | undefined {
  if (compared === 'larger')
    return vscode.l10n.t('Larger than the default size: may cost more (prices are in your console).');
  if (compared === 'unknown')
    return vscode.l10n.t('Not comparable with the default size: its price may differ (prices are in your console).');
  if (compared === 'smaller') return vscode.l10n.t('Smaller than the default size.');
  return undefined;
}

/** Images in the workspace (for masks and references). */
export async function workspaceImages(): Promise<vscode.Uri[]> {
  return vscode.workspace.findFiles('**/*.{png,jpg,jpeg,webp,PNG,JPG,JPEG,WEBP}', '**/{node_modules,.git}/**', 500);
}

export async function pickMask(source: vscode.Uri): Promise<vscode.Uri | undefined | 'cancel'> {
  const images = (await workspaceImages()).filter((u) => u.toString() !== source.toString());
  const none = { label: vscode.l10n.t('No mask'), description: vscode.l10n.t('edit the whole image') };
  const items = [none, ...images.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri }))];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Edit Image: mask (optional)'),
    ignoreFocusOut: true,
  });
  if (!picked) return 'cancel';
  return 'uri' in picked ? picked.uri : undefined;
}

export async function pickReferences(source: vscode.Uri, mask?: vscode.Uri): Promise<vscode.Uri[] | undefined> {
  const exclude = new Set([source.toString(), mask?.toString()]);
  const images = (await workspaceImages()).filter((u) => !exclude.has(u.toString()));
  if (images.length === 0) return [];
  const picked = await vscode.window.showQuickPick(
    images.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
    {
      title: vscode.l10n.t('Edit Image: reference images (optional; each one may add to the charge)'),
      canPickMany: true,
      ignoreFocusOut: true,
    },
  );
  return picked?.map((p) => p.uri);
}
