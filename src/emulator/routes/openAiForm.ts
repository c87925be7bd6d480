// What the two OpenAI-family chat routes (chatCompletions.ts, responses.ts) share in reading a request into the
// Messages form the reply planner knows: the route's start, tool_choice, and an image sent as a data URL.
import { readJsonBody, resolveModel, type ResolvedModel } from '../access';
import type { Ctx } from '../http';
import { refusesImages } from '../models/vision';

type Json = Record<string, unknown>;

/**
 * The JSON body, read into the Messages form by `toForm` (which answers 400 itself), for a model the key may call
 * and that takes the images the messages carry; undefined once an error answer is sent.
 */
export async function readAsMessages(
  ctx: Ctx,
  toForm: (ctx: Ctx, body: Json) => Json | undefined,
): Promise<{ body: Json; form: Json; model: ResolvedModel } | undefined> {
  const body = await readJsonBody(ctx);
  if (!body) return undefined;
  const form = toForm(ctx, body);
  if (!form) return undefined;
  const model = resolveModel(ctx, body.model, 'messages');
  if (!model || refusesImages(ctx, model, form.messages)) return undefined;
  return { body, form, model };
}

/** tool_choice as Messages has it: "required" → any, "none" → none; `named` reads the dialect's choice of one tool. */
export function toolChoiceOf(choice: unknown, named: (choice: unknown) => Json | undefined): Json | undefined {
  if (choice === 'required') return { type: 'any' };
  if (choice === 'none') return { type: 'none' };
  return named(choice);
}

/** A base64 image block for a `data:` URL (anything else: a PNG block without data). */
export function dataUrlImage(url: string): Json {
  const m = /^data:([^;]+);base64,(.*)$/s.exec(url);
  return { type: 'image', source: { type: 'base64', media_type: m?.[1] ?? 'image/png', data: m?.[2] ?? '' } };
}
