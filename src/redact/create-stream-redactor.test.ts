import { describe, expect, it } from 'vitest';
import { createStreamRedactor } from './create-stream-redactor.js';
import { documents } from './fixtures/documents.js';
import { nearMisses } from './fixtures/near-misses.js';
import { createRandomText } from './fixtures/random-text.js';
import { secrets, secretVectors } from './fixtures/secret-vectors.js';
import { redactSecrets } from './redact-secrets.js';

const vectors = [...secretVectors, ...documents];
const texts = [...vectors.map((vector) => vector.input), ...nearMisses.filter((text) => text.length < 2000)];

/** Runs `chunks` through one redactor and returns everything it emitted. */
function streamRedact(chunks: readonly string[]): string {
  const redactor = createStreamRedactor();
  return chunks.map((chunk) => redactor.push(chunk)).join('') + redactor.flush();
}

/** Splits `text` at random points into chunks of 1 to `maxChunk` characters. */
function randomChunks(text: string, maxChunk: number, random: () => number): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = 1 + Math.floor(random() * maxChunk);
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return chunks;
}

describe('createStreamRedactor', () => {
  it('equals redactSecrets of the whole text for every vector split at every position', () => {
    for (const text of texts) {
      const expected = redactSecrets(text);
      for (let split = 0; split <= text.length; split++) {
        const output = streamRedact([text.slice(0, split), text.slice(split)]);
        if (output !== expected) expect({ text, split, output }).toEqual({ text, split, output: expected });
      }
    }
  });

  it('equals redactSecrets for random multi-way splits and for one character at a time', () => {
    const digits = createRandomText(42);
    const random = (): number => Number.parseInt(digits.string('0123456789', 6), 10) / 1e6;
    for (const text of texts) {
      const expected = redactSecrets(text);
      expect(streamRedact([...text])).toBe(expected);
      for (let round = 0; round < 20; round++) {
        expect(streamRedact(randomChunks(text, round % 2 === 0 ? 5 : 80, random))).toBe(expected);
      }
    }
  });

  it('never emits the start of a secret that a later chunk completes', () => {
    for (const vector of vectors) {
      const redactor = createStreamRedactor();
      let shown = '';
      for (const character of vector.input) {
        shown += redactor.push(character);
        for (const secret of vector.secrets) expect(shown).not.toContain(secret.slice(0, 12));
      }
      expect(shown + redactor.flush()).toBe(vector.expected);
    }
  });

  it('holds back only what could be the start of a secret', () => {
    const redactor = createStreamRedactor();
    const prose = 'The agent read the file, summarised it and wrote the report. '.repeat(20);
    const shown = [...prose].map((character) => redactor.push(character)).join('');
    expect(shown).toBe(prose);
    expect(redactor.push('and then sk-pr')).toBe('and then ');
    expect(redactor.push('oject') + redactor.flush()).toBe('sk-project');
  });

  it('holds a private-key block until its END line, then emits one marker', () => {
    const redactor = createStreamRedactor();
    const body = `${'TUlJRXBBSUJBQUtDQVFFQTEyMzQ1Njc4OTA='.repeat(2)}\n`.repeat(40);
    expect(redactor.push('key:\n-----BEGIN RSA PRIVATE KEY-----\n')).toBe('key:\n');
    expect(redactor.push(body)).toBe('');
    expect(redactor.push('-----END RSA PRIVATE KEY-----\nok.') + redactor.flush()).toBe(
      '[REDACTED:private-key]\nok.',
    );
  });

  it('redacts a block whose END line does not come within the bound, wherever it is split', () => {
    const text = `-----BEGIN EC PRIVATE KEY-----\n${'QUJDRA=='.repeat(1500)}\n-----END EC PRIVATE KEY-----\ndone.`;
    const expected = redactSecrets(text);
    expect(expected).toBe('[REDACTED:private-key]\ndone.');
    const random = createRandomText(3);
    const chunks = randomChunks(text, 700, () => Number.parseInt(random.string('0123456789', 4), 10) / 1e4);
    expect(streamRedact(chunks)).toBe(expected);
  });

  it('catches a key split across chunks', () => {
    const key = secrets.openaiProject;
    expect(streamRedact(['use sk-proj-AB', `${key.slice(14)} now`])).toBe(
      redactSecrets(`use sk-proj-AB${key.slice(14)} now`),
    );
    expect(streamRedact(['use sk-proj-AB', `${key.slice(14)} now`])).toBe('use [REDACTED:openai-key] now');
  });

  it('starts a new text after flush', () => {
    const redactor = createStreamRedactor();
    expect(redactor.push('password="abc') + redactor.flush()).toBe('password="[REDACTED:password]');
    expect(redactor.push('plain text, nothing held') + redactor.flush()).toBe('plain text, nothing held');
  });

  it('honours ignoreKinds', () => {
    const redactor = createStreamRedactor({ ignoreKinds: ['jwt'] });
    const text = `token is ${secrets.jwt}.`;
    expect(redactor.push(text) + redactor.flush()).toBe(text);
  });
});
