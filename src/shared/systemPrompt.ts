// The one assembly of a system prompt (pure), for Ask answers, agent turns and VS Code's chat: the parts in order (the
// agent's own prompt, the project instructions, the user's system prompt, …), each trimmed, empty ones left out, one
// blank line between them.
export function systemPrompt(...parts: ReadonlyArray<string | undefined>): string {
  return parts
    .map((p) => p?.trim())
    .filter((p): p is string => !!p)
    .join('\n\n');
}
