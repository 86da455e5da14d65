import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documents } from './fixtures/documents.js';
import { nearMisses } from './fixtures/near-misses.js';
import { createRandomText } from './fixtures/random-text.js';
import { secrets, secretVectors } from './fixtures/secret-vectors.js';
import { redactSecrets } from './redact-secrets.js';
import { SECRET_KINDS } from './secret-kind.js';

const allVectors = [...secretVectors, ...documents];
/** The corpus kept as data (`secret-corpus.test.ts` runs it); here it counts toward the kinds covered. */
const corpusPositives = (
  JSON.parse(readFileSync(new URL('./fixtures/secret-corpus.json', import.meta.url), 'utf8')) as {
    positives: { expected: string }[];
  }
).positives;

describe('redactSecrets', () => {
  it.each(allVectors.map((vector) => [vector.name, vector] as const))('redacts %s', (_name, vector) => {
    const output = redactSecrets(vector.input);
    expect(output).toBe(vector.expected);
    for (const secret of vector.secrets) expect(output).not.toContain(secret);
  });

  it.each(nearMisses.map((text) => [text.slice(0, 60), text] as const))('leaves alone %j', (_label, text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it('covers every kind with at least one vector', () => {
    const seen = new Set(
      [...allVectors, ...corpusPositives].flatMap((vector) =>
        [...vector.expected.matchAll(/\[REDACTED:([a-z0-9-]+)\]/g)].map((m) => m[1]),
      ),
    );
    expect([...SECRET_KINDS].filter((kind) => !seen.has(kind))).toEqual([]);
  });

  it('is idempotent on every vector, near miss and random mix of them', () => {
    const pieces = [...allVectors.map((vector) => vector.input), ...nearMisses];
    const random = createRandomText(7);
    const mixes = Array.from({ length: 200 }, () => {
      const picks = random
        .string('0123456789', 4)
        .split('')
        .map((digit) => pieces[(Number(digit) * 7919) % pieces.length]);
      return picks.join(random.string(' \n=:"\'-_/.', 1));
    });
    for (const text of [...pieces, ...mixes]) {
      const once = redactSecrets(text);
      expect(redactSecrets(once)).toBe(once);
    }
  });

  it('keeps the key and redacts only the value of a pair', () => {
    expect(redactSecrets('user=bob&password=hunter2&next=1')).toBe(
      'user=bob&password=[REDACTED:password]&next=1',
    );
    expect(redactSecrets("PGPASSWORD='a b c' psql")).toBe("PGPASSWORD='[REDACTED:password]' psql");
    expect(redactSecrets('db:\n  password: two words # comment\n  user: x')).toBe(
      'db:\n  password: [REDACTED:password]\n  user: x',
    );
  });

  it('treats keys that merely contain a keyword as ordinary (token_count, max_tokens)', () => {
    expect(redactSecrets('token_count=5, max_tokens=100, token=abc')).toBe(
      'token_count=5, max_tokens=100, token=[REDACTED:token]',
    );
  });

  it('labels the value of a key by the token it holds when it is one', () => {
    expect(redactSecrets(`api_key: ${secrets.anthropic}`)).toBe('api_key: [REDACTED:anthropic-key]');
    expect(redactSecrets(`password=${secrets.githubClassic}`)).toBe('password=[REDACTED:github-token]');
  });

  it('redacts a token glued to other token characters as a whole', () => {
    expect(redactSecrets(`${secrets.openaiProject}-and-more_chars tail`)).toBe('[REDACTED:openai-key] tail');
  });

  it('does not start a token inside a word, but does after punctuation', () => {
    const key = secrets.openaiClassic;
    expect(redactSecrets(`x${key}`)).toBe(`x${key}`);
    expect(redactSecrets(`(${key})`)).toBe('([REDACTED:openai-key])');
    expect(redactSecrets(`https://host/path/${key}`)).toBe('https://host/path/[REDACTED:openai-key]');
  });

  it('redacts a private-key block without its END line from the BEGIN line on', () => {
    const text = `-----BEGIN RSA PRIVATE KEY-----\n${'QUJD'.repeat(3000)}\nmore base64 lines`;
    expect(redactSecrets(`${text}. After.`)).toBe('[REDACTED:private-key]. After.');
  });

  it('leaves the kinds named in ignoreKinds', () => {
    const text = `session ${secrets.jwt} and api_key=${secrets.openaiClassic}`;
    expect(redactSecrets(text, { ignoreKinds: ['jwt', 'openai-key'] })).toBe(
      `session ${secrets.jwt} and api_key=[REDACTED:api-key]`,
    );
  });

  it('returns an empty text unchanged', () => {
    expect(redactSecrets('')).toBe('');
  });
});
