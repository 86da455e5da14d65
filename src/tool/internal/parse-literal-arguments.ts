/**
 * Reads the argument list of a text skill call, `a="x", n=3, tags=['a', "b"], opts={k: true}`: named
 * arguments whose values are Python or JSON literals. A hand-written scanner (no `eval`, no regular
 * expression over the whole text): strings may hold `)`, quotes, commas and `</skill>`; the scanner
 * stops at the `)` that closes the list. Linear in the text; nesting is bounded.
 */

export type LiteralArgumentsResult =
  | { ok: true; args: Record<string, unknown>; end: number }
  | { ok: false; problem: string; at: number };

const maxDepth = 32;
const identifier = /[A-Za-z_][A-Za-z0-9_]*/y;
const number = /-?(?:0|[1-9][0-9_]*)(?:\.[0-9_]+)?(?:[eE][+-]?[0-9]+)?/y;
const keywords: Record<string, unknown> = {
  true: true,
  false: false,
  True: true,
  False: false,
  null: null,
  None: null,
};

/** What `fail` throws to unwind the recursive descent; caught below and returned, never escaping. */
interface ParseProblem {
  readonly parseProblem: true;
  readonly problem: string;
  readonly at: number;
}

function isParseProblem(value: unknown): value is ParseProblem {
  return typeof value === 'object' && value !== null && (value as ParseProblem).parseProblem === true;
}

/** Parses from just after `(` up to and including the closing `)`; `end` is the index after it. */
export function parseLiteralArguments(text: string, start: number): LiteralArgumentsResult {
  let i = start;
  const fail = (problem: string, at = i): never => {
    const unwind: ParseProblem = { parseProblem: true, problem, at };
    throw unwind;
  };
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };

  const readString = (): string => {
    const quote = text[i] as string;
    const triple = text.startsWith(quote.repeat(3), i);
    const opening = i;
    i += triple ? 3 : 1;
    let out = '';
    for (;;) {
      if (i >= text.length) fail(`a string opened here is never closed`, opening);
      const ch = text[i] as string;
      if (triple ? text.startsWith(quote.repeat(3), i) : ch === quote) {
        i += triple ? 3 : 1;
        return out;
      }
      if (ch === '\\') {
        out += readEscape();
        continue;
      }
      out += ch;
      i++;
    }
  };

  const readEscape = (): string => {
    const next = text[i + 1];
    i += 2;
    switch (next) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case '0':
        return '\0';
      case 'u':
      case 'x': {
        const size = next === 'u' ? 4 : 2;
        const hex = text.slice(i, i + size);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== size) fail(`bad \\${next} escape`, i - 2);
        i += size;
        return String.fromCharCode(Number.parseInt(hex, 16));
      }
      case undefined:
        return fail('a string ends in a backslash', i - 2);
      default:
        return next; // \" \' \\ \/ and unknown escapes keep the character
    }
  };

  const readValue = (depth: number): unknown => {
    if (depth > maxDepth) fail(`values nest deeper than ${maxDepth} levels`);
    skipSpace();
    const ch = text[i];
    if (ch === '"' || ch === "'") return readString();
    if (ch === '[') return readList(depth, ']');
    if (ch === '{') return readObject(depth);
    number.lastIndex = i;
    const numeric = number.exec(text);
    if (numeric) {
      i += numeric[0].length;
      return Number(numeric[0].replaceAll('_', ''));
    }
    identifier.lastIndex = i;
    const word = identifier.exec(text);
    if (word && word[0] in keywords) {
      i += word[0].length;
      return keywords[word[0]];
    }
    if (ch === undefined) return fail('the call ends before a value');
    return fail(
      word
        ? `'${word[0]}' is not a value: put text in quotes ("${word[0]}")`
        : `unexpected '${ch}' where a value should be (a quoted string, number, true/false, null, list or object)`,
    );
  };

  const readList = (depth: number, close: string): unknown[] => {
    i++;
    const items: unknown[] = [];
    for (;;) {
      skipSpace();
      if (text[i] === close) {
        i++;
        return items;
      }
      items.push(readValue(depth + 1));
      skipSpace();
      if (text[i] === ',') i++;
      else if (text[i] !== close) fail(`expected ',' or '${close}' in a list`);
    }
  };

  const readObject = (depth: number): Record<string, unknown> => {
    i++;
    const entries: [string, unknown][] = [];
    for (;;) {
      skipSpace();
      if (text[i] === '}') {
        i++;
        return Object.fromEntries(entries);
      }
      let key: string;
      if (text[i] === '"' || text[i] === "'") key = readString();
      else {
        identifier.lastIndex = i;
        const word = identifier.exec(text);
        if (!word) return fail('expected a key in an object');
        key = word[0];
        i += key.length;
      }
      skipSpace();
      if (text[i] !== ':') fail(`expected ':' after the key '${key}'`);
      i++;
      entries.push([key, readValue(depth + 1)]);
      skipSpace();
      if (text[i] === ',') i++;
      else if (text[i] !== '}') fail("expected ',' or '}' in an object");
    }
  };

  try {
    const args = new Map<string, unknown>();
    for (;;) {
      skipSpace();
      if (text[i] === ')') {
        // fromEntries defines own properties, so `__proto__` stays a plain argument name.
        return { ok: true, args: Object.fromEntries(args), end: i + 1 };
      }
      identifier.lastIndex = i;
      const name = identifier.exec(text);
      if (!name) {
        if (i >= text.length) fail("the argument list is never closed with ')'");
        fail('arguments must be named: name="value"');
      }
      const key = (name as RegExpExecArray)[0];
      const keyAt = i;
      i += key.length;
      skipSpace();
      if (text[i] !== '=') fail(`expected '=' after the argument name '${key}'`);
      i++;
      if (args.has(key)) fail(`the argument '${key}' is given twice`, keyAt);
      args.set(key, readValue(0));
      skipSpace();
      if (text[i] === ',') i++;
      else if (text[i] !== ')')
        fail(
          i >= text.length
            ? "the argument list is never closed with ')'"
            : "expected ',' or ')' after a value",
        );
    }
  } catch (error) {
    if (isParseProblem(error)) return { ok: false, problem: error.problem, at: error.at };
    throw error;
  }
}
