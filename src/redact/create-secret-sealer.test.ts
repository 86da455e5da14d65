import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretSealer, isSealed } from './index.js';

describe('createSecretSealer', () => {
  const text = '{"token":"ghp_0123456789abcdefABCDEF0123456789abcd"}';

  it('seals text so that it is not readable, and opens it again under the same key', () => {
    const key = randomBytes(32);
    const sealed = createSecretSealer({ key }).seal(text);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('ghp_');
    expect(createSecretSealer({ key }).open(sealed)).toBe(text);
    // A fresh nonce each time: the same text seals differently.
    expect(createSecretSealer({ key }).seal(text)).not.toBe(sealed);
  });

  it('opens nothing sealed under another key, or changed', () => {
    const sealer = createSecretSealer({ key: randomBytes(32) });
    const sealed = sealer.seal(text);
    expect(createSecretSealer({ key: randomBytes(32) }).open(sealed)).toBeUndefined();
    // One character of the encrypted body changed (well inside it, so that it changes a whole byte).
    const at = sealed.length - 10;
    const changed = sealed[at] === 'A' ? 'B' : 'A';
    expect(sealer.open(`${sealed.slice(0, at)}${changed}${sealed.slice(at + 1)}`)).toBeUndefined();
    expect(sealer.open('plain text')).toBeUndefined();
  });

  it('takes only a 32-byte key', () => {
    expect(() => createSecretSealer({ key: randomBytes(16) })).toThrow(/32 bytes/);
  });
});
