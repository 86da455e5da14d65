import { describe, expect, it } from 'vitest';
import { createStreamRedactor } from '../create-stream-redactor.js';
import { redactSecrets } from '../redact-secrets.js';
import { SECRET_PATTERNS } from '../secret-patterns.js';

/*
 * Linear time. Each input is a 1 MB line built to make a backtracking or rescanning redactor
 * super-linear; a quadratic scan of 1 MB would take hours, so finishing within the test timeout is
 * the assertion (tests never assert on timings). Each line also goes through the stream redactor.
 */
const megabyte = 1_000_000;
const line = (unit: string): string => unit.repeat(Math.ceil(megabyte / unit.length)).slice(0, megabyte);

const namedLines: Record<string, string> = {
  'one letter': 'a'.repeat(megabyte),
  'sk- repeated': line('sk-'),
  'password= repeated': line('password='),
  'password= and a space repeated': line('password= '),
  'JSON password opening repeated': line('"password": "'),
  'eyJ repeated': line('eyJ'),
  'JWT-like segments that never complete': line('eyJaaaaaaaa.b.'),
  'BEGIN line without END': `-----BEGIN RSA PRIVATE KEY-----${'A'.repeat(megabyte)}`,
  'BEGIN line repeated': line('-----BEGIN RSA PRIVATE KEY-----'),
  'BEGIN line and punctuation repeated': line('-----BEGIN RSA PRIVATE KEY-----!'),
  'BEGIN without a label repeated': line('-----BEGIN '),
  'scheme separator repeated': line('://'),
  'URL user and password without host': line('a://b:c'),
  'URL password with at signs repeated': line('://u:p@'),
  'URL password of slashes and at signs': `://u:${line('/@')}`,
  'access key id and separator repeated': line('AKIA0000000000000000, '),
  'key in prose repeated': line('the secret: '),
  'Bearer repeated': line('Bearer '),
  'Authorization header repeated': line('authorization: '),
  backslashes: line('\\'),
  'escaped quotes': line('\\"password\\":\\"'),
  'marker repeated': line('[REDACTED:token]'),
};

const triggers = [...new Set(SECRET_PATTERNS.flatMap((rule) => rule.triggers))];

/** Redacts `text` whole and in 64 KB chunks; both must agree. */
function redactBothWays(text: string): string {
  const whole = redactSecrets(text);
  const redactor = createStreamRedactor();
  let streamed = '';
  for (let at = 0; at < text.length; at += 65_536) streamed += redactor.push(text.slice(at, at + 65_536));
  expect(streamed + redactor.flush()).toBe(whole);
  return whole;
}

describe('redaction runs in linear time', () => {
  it.each(Object.entries(namedLines))('on a 1 MB line: %s', (_name, text) => {
    const output = redactBothWays(text);
    expect(redactSecrets(output)).toBe(output);
  });

  it.each(triggers)('on a 1 MB line built from the trigger %j', (trigger) => {
    // The trigger repeated, glued to token characters, followed by separators and by a quote.
    redactBothWays(line(`${trigger}${trigger.toUpperCase()}x1 ${trigger}= ${trigger}:"`));
  });

  it('in a stream fed one character at a time while a long candidate is pending', () => {
    const text = `-----BEGIN RSA PRIVATE KEY-----\n${'QUJD\n'.repeat(40_000)}`;
    const redactor = createStreamRedactor();
    let streamed = '';
    for (const character of text) streamed += redactor.push(character);
    expect(streamed + redactor.flush()).toBe(redactSecrets(text));
  });
});
