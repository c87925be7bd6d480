// The user's own request headers (GatewayClientOptions.headers: the setting modelGateway.requestHeaders and
// the secret headers stored beside a key), checked once per client. They ride on every route but never
// replace what the client itself sends: the key's auth header, the version header and the body's framing
// (docs/gateway-protocol.md#request-headers).

/** RFC 7230 token characters: what a header name may be made of. */
const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** A value may not carry a line break or NUL (header injection), nor other controls except tab. */
const BAD_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;
/** Set by the client for its own purposes: a user header of the same name would change what is sent. */
const FRAMING = ['content-type', 'content-length', 'transfer-encoding', 'host', 'connection', 'accept'];

export interface CheckedHeaders {
  /** Lower-case name → value, ready to add to each request. */
  headers: Record<string, string>;
  /** Why these headers cannot be sent (every call then fails with it, naming the header). */
  problem?: string;
}

/** Checks the user's headers against the names the client owns; `versionHeader` is the configured one. */
export function checkRequestHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  versionHeader: string,
): CheckedHeaders {
  const checked: Record<string, string> = {};
  const problems: string[] = [];
  const version = versionHeader.toLowerCase();
  for (const [rawName, value] of Object.entries(headers ?? {})) {
    const name = rawName.trim();
    const lower = name.toLowerCase();
    if (!TOKEN.test(name)) problems.push(`"${name}" is not a valid header name (letters, digits and !#$%&'*+.^_\`|~-)`);
    else if (lower === 'authorization' || lower === 'x-api-key')
      problems.push(
        `"${name}" would replace the key's own auth header (the API key is sent as x-api-key or Authorization: Bearer)`,
      );
    else if (lower === version)
      problems.push(`"${name}" would replace the version header (set modelGateway.version / versionHeader instead)`);
    else if (FRAMING.includes(lower)) problems.push(`"${name}" is set by the client itself for each request`);
    else if (typeof value !== 'string' || BAD_VALUE.test(value))
      problems.push(`the value of "${name}" contains a line break or control character`);
    else checked[lower] = value;
  }
  if (problems.length === 0) return { headers: checked };
  return { headers: checked, problem: `Request headers cannot be sent: ${problems.join('; ')}.` };
}
