// OpenRouter (openrouter.ai), as far as the account goes: its Anthropic-compatible route lives under
// https://openrouter.ai/api, so GET <base>/v1/key is its /api/v1/key ({data:{limit, usage, limit_remaining}}),
// and the final usage object of every answer carries the billed `cost`. Errors and streams keep the emulator's
// default shapes (this profile exists for the account routes, not for OpenRouter's error bodies).
import type { Dialect } from './types';

export const openRouter: Dialect = {
  name: 'openrouter',
  account: 'openrouter',
  error: () => undefined,
  sse: {},
};
