import { describe, expect, it } from 'vitest';
import { createStringFieldReader } from './read-string-field.js';

function readAll(field: string, pieces: string[]): string[] {
  const read = createStringFieldReader(field);
  return pieces.map(read);
}

describe('createStringFieldReader', () => {
  it('gives the field as it is written, piece by piece', () => {
    expect(
      readAll('message', [
        '{"outcome":"success","mes',
        'sage":"It is ',
        '21 °C',
        ' in Oslo."',
        ',"data":{}}',
      ]),
    ).toEqual(['', 'It is ', '21 °C', ' in Oslo.', '']);
  });

  it('decodes escapes, also one cut in half', () => {
    const read = createStringFieldReader('message');
    const text = ['{"message":"Line\\', 'nTwo \\"q\\" \\u00', 'e9 end"}'].map(read).join('');
    expect(text).toBe('Line\nTwo "q" é end');
  });

  it('ignores the same key in a nested object and in string values', () => {
    const json = JSON.stringify({ data: { message: 'inner' }, note: '"message":"no"', message: 'outer' });
    expect(readAll('message', [json]).join('')).toBe('outer');
  });

  it('gives nothing when the field is not a string', () => {
    expect(readAll('message', ['{"message": null, "summary": "x"}']).join('')).toBe('');
  });
});
