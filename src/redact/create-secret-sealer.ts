/**
 * Keeps a value that must be used again later — the arguments of a call held for approval — encrypted
 * at rest, so that what the store holds is never the raw secret, and the call still runs with the real
 * value once it is approved (never with a redaction marker). AES-256-GCM: a fresh 12-byte nonce per
 * value, and the tag rejects any value changed or sealed under another key (docs/decisions/0078).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Seals and opens text under one key. */
export interface SecretSealer {
  /** The text encrypted, as one line of text that says what it is: `flowstack-sealed:v1:<key id>:<data>`. */
  seal(text: string): string;
  /** The text a `seal` of this key made; `undefined` for text sealed under another key, or changed. */
  open(sealed: string): string | undefined;
}

const prefix = 'flowstack-sealed:v1:';
const keyBytes = 32;
const nonceBytes = 12;
const tagBytes = 16;

/** True when `text` is a value some {@link SecretSealer} sealed. */
export function isSealed(text: unknown): text is string {
  return typeof text === 'string' && text.startsWith(prefix);
}

/**
 * A sealer over a 32-byte key.
 *
 * @example
 * const sealer = createSecretSealer({ key: randomBytes(32) });
 * sealer.open(sealer.seal('{"token":"ghp_…"}')); // '{"token":"ghp_…"}'
 */
export function createSecretSealer(options: { key: Uint8Array }): SecretSealer {
  if (options.key.byteLength !== keyBytes)
    throw new RangeError(`A sealing key has ${keyBytes} bytes; this one has ${options.key.byteLength}.`);
  const key = Buffer.from(options.key);
  // Names the key without revealing it, so that text sealed under another key is told apart at once.
  const keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  const ownPrefix = `${prefix}${keyId}:`;
  return {
    seal(text) {
      const nonce = randomBytes(nonceBytes);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return ownPrefix + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      if (!sealed.startsWith(ownPrefix)) return undefined;
      const data = Buffer.from(sealed.slice(ownPrefix.length), 'base64url');
      if (data.byteLength < nonceBytes + tagBytes) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, nonceBytes));
        decipher.setAuthTag(data.subarray(nonceBytes, nonceBytes + tagBytes));
        return Buffer.concat([
          decipher.update(data.subarray(nonceBytes + tagBytes)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
