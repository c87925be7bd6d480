// Reading parsed JSON of unknown shape (gateway answers, error bodies, task records): the client's one object test.

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/** True for a JSON object (not null, not an array). */
export function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A finite number, else undefined (a string is not read as one). */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
