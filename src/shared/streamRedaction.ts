// Redaction of text that arrives in pieces (pure): an answer streamed to the chat view is shown as it comes, so a key
// the model echoes can be split across two deltas, where redacting each piece alone would show both halves. The
// streamed text is cut only after a character that no form of any known secret contains (a space, a quote, a
// bracket, ...): whatever follows the last such character may be the start of a key and is held back until a later
// piece ends it, or the stream ends. Each part let through is redacted whole, as the stored copy is.
import { redactKnownSecrets } from './secretRedaction';

/** Characters a secret's forms are made of whatever the secret: base64 (both alphabets), URL escapes, masks. */
const FORM_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_%*.…•';

export class StreamRedactor {
  private held = '';
  private insideKey = '';
  private inside = new Set<string>();

  /** `secrets`: the known secrets now (read at each piece: a key can be added while an answer streams). */
  constructor(private readonly secrets: () => Iterable<string>) {}

  /** The part of the text so far that can be shown now, redacted; '' while it may still end in a key's start. */
  push(piece: string): string {
    if (!piece) return '';
    const secrets = this.live();
    this.held += piece;
    if (secrets.length === 0) return this.release(this.held.length, secrets);
    // The held text before this piece had no cut point (it was cut after its last one): look in the piece only.
    for (let i = this.held.length - 1; i >= this.held.length - piece.length; i--)
      if (!this.inside.has(this.held[i])) return this.release(i + 1, secrets);
    return '';
  }

  /** Everything still held, redacted (the stream ended, or what waits must be shown now). */
  end(): string {
    return this.release(this.held.length, this.live());
  }

  private release(cut: number, secrets: string[]): string {
    const ready = this.held.slice(0, cut);
    this.held = this.held.slice(cut);
    return secrets.length ? redactKnownSecrets(ready, secrets) : ready;
  }

  private live(): string[] {
    const secrets = [...this.secrets()].map((s) => s.trim()).filter((s) => s.length > 0);
    const key = secrets.join('\n');
    if (key !== this.insideKey) {
      this.insideKey = key;
      this.inside = new Set([...FORM_CHARACTERS, ...secrets.join(''), ...secrets.map(encodeURIComponent).join('')]);
    }
    return secrets;
  }
}
