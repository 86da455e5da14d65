/**
 * Reads one string field of a JSON object while the object is still being written: `finish_skill`'s
 * `message`, the reply, arrives as tool-input deltas, and each piece of it can go to the reader as soon as
 * it is written. Only a field of the top-level object counts; escapes are decoded, and one cut in half
 * waits for its other half.
 */

/** Takes the JSON text piece by piece; each call returns the field's newly written text ('' for none). */
export type StringFieldReader = (piece: string) => string;

const simpleEscapes: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

export function createStringFieldReader(field: string): StringFieldReader {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let isKey = false;
  let expectKey = false;
  let key = '';
  let lastKey: string | undefined;
  let afterColon = false;
  let mode: 'scan' | 'value' | 'done' = 'scan';
  let pendingEscape = '';

  /** One character of the field's value; returns its text. */
  const decode = (c: string): string => {
    if (pendingEscape !== '') {
      pendingEscape += c;
      // `\uXXXX` waits for its four digits.
      if (pendingEscape.startsWith('\\u') && pendingEscape.length < 6) return '';
      const sequence = pendingEscape;
      pendingEscape = '';
      if (!sequence.startsWith('\\u')) return simpleEscapes[c] ?? c;
      const code = Number.parseInt(sequence.slice(2), 16);
      return Number.isNaN(code) ? '' : String.fromCharCode(code);
    }
    if (c === '\\') {
      pendingEscape = '\\';
      return '';
    }
    if (c === '"') {
      mode = 'done';
      return '';
    }
    return c;
  };

  const scan = (c: string): void => {
    if (inString) {
      if (escaped) {
        escaped = false;
        if (isKey) key += c;
      } else if (c === '\\') escaped = true;
      else if (c === '"') {
        inString = false;
        if (isKey) lastKey = key;
      } else if (isKey) key += c;
      return;
    }
    if (/\s/.test(c)) return;
    if (c === '"') {
      if (depth === 1 && afterColon && lastKey === field) {
        mode = 'value';
        return;
      }
      inString = true;
      isKey = depth === 1 && expectKey;
      key = '';
      afterColon = false;
      return;
    }
    afterColon = false;
    if (c === '{' || c === '[') {
      depth += 1;
      expectKey = depth === 1 && c === '{';
    } else if (c === '}' || c === ']') depth -= 1;
    else if (c === ':' && depth === 1) {
      afterColon = true;
      expectKey = false;
    } else if (c === ',' && depth === 1) expectKey = true;
  };

  return (piece) => {
    let out = '';
    for (const c of piece) {
      if (mode === 'done') break;
      if (mode === 'value') out += decode(c);
      else scan(c);
    }
    return out;
  };
}

/**
 * The field as the reply it becomes, which is trimmed: leading white space is dropped, and trailing white
 * space waits until more words follow it (at the end it is never given).
 */
export function createReplyFieldReader(field: string): StringFieldReader {
  const read = createStringFieldReader(field);
  let started = false;
  let space = '';
  return (piece) => {
    let text = read(piece);
    if (!started) text = text.trimStart();
    if (text === '') return '';
    const words = text.trimEnd();
    if (words === '') {
      space += text;
      return '';
    }
    const out = space + words;
    space = text.slice(words.length);
    started = true;
    return out;
  };
}
