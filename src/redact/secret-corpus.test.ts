/**
 * The secret corpus (`fixtures/secret-corpus.json`) drives this test: every positive is redacted exactly
 * as written there, whole and streamed, and no part of its secrets survives; every near miss comes out
 * unchanged. Values that only exist in memory (arrays under a secret-named key, byte arrays) follow.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createStreamRedactor } from './create-stream-redactor.js';
import { redactSecrets } from './redact-secrets.js';
import { redactValue } from './redact-value.js';

interface Corpus {
  positives: { name: string; input: string; expected: string; secrets: string[] }[];
  nearMisses: string[];
}

const corpus = JSON.parse(
  readFileSync(new URL('./fixtures/secret-corpus.json', import.meta.url), 'utf8'),
) as Corpus;

function streamed(text: string, chunk: number): string {
  const redactor = createStreamRedactor();
  let output = '';
  for (let at = 0; at < text.length; at += chunk) output += redactor.push(text.slice(at, at + chunk));
  return output + redactor.flush();
}

describe('the secret corpus', () => {
  it.each(corpus.positives.map((c) => [c.name, c] as const))('redacts %s', (_name, c) => {
    const output = redactSecrets(c.input);
    expect(output).toBe(c.expected);
    for (const secret of c.secrets) expect(output).not.toContain(secret);
    expect(redactSecrets(output)).toBe(output);
    expect(streamed(c.input, 7)).toBe(output);
    // Inside a JSON string (a tool's arguments as the model wrote them) the secret goes too.
    const asJson = JSON.stringify({ note: c.input });
    for (const secret of c.secrets) expect(redactSecrets(asJson)).not.toContain(secret);
  });

  it.each(corpus.nearMisses.map((text) => [text, text] as const))('leaves alone %j', (_label, text) => {
    expect(redactSecrets(text)).toBe(text);
    expect(streamed(text, 5)).toBe(text);
  });
});

describe('redactValue on values the corpus cannot hold', () => {
  it('redacts every item of an array or object under a secret-named key', () => {
    expect(
      redactValue({
        passwords: ['hunter2', 'Tr0ub4dor&3'],
        credentials: { password: { current: 'sunshine', previous: 'moonlight', rotated: true } },
        apiKey: [12345, null],
      }),
    ).toEqual({
      passwords: ['[REDACTED:password]', '[REDACTED:password]'],
      credentials: {
        password: { current: '[REDACTED:password]', previous: '[REDACTED:password]', rotated: true },
      },
      apiKey: ['[REDACTED:api-key]', null],
    });
  });

  it('reads byte arrays as text: a secret in a Buffer or Uint8Array is redacted', () => {
    const token = 'ghp_ctJCnqgTdWKyH3dccKmjqhCJffee1iuyX1su';
    const output = redactValue({
      body: Buffer.from(`Authorization: token ${token}`),
      raw: new TextEncoder().encode(`key ${token}`),
      password: Buffer.from('hunter2'),
    });
    expect(JSON.stringify(output)).not.toContain(token);
    expect(JSON.stringify(output)).not.toContain('hunter2');
    expect(output).toEqual({
      body: 'Authorization: token [REDACTED:github-token]',
      raw: 'key [REDACTED:github-token]',
      password: '[REDACTED:password]',
    });
  });

  it('says how long a byte array that is not text was, without its bytes', () => {
    expect(redactValue({ image: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00]) })).toEqual({
      image: '[binary: 5 bytes]',
    });
  });
});
