import type { Continuation } from './secret-rule.js';

/** A continuation in progress; `escaped` carries a backslash seen at the very end of a chunk. */
export interface ActiveContinuation {
  readonly spec: Continuation;
  escaped: boolean;
}

/** Where consuming stopped, and whether it is over (`false`: more text may still belong to it). */
export interface ContinueResult {
  readonly pos: number;
  readonly done: boolean;
}

const backslash = 0x5c;
const lineFeed = 0x0a;
const carriageReturn = 0x0d;

/**
 * Consumes the remainder of a secret from `pos`. With `final` false the text may be continued by a
 * later chunk, so the result is `done` only when the stop does not depend on characters not yet seen.
 */
export function continueSecret(
  text: string,
  pos: number,
  active: ActiveContinuation,
  final: boolean,
): ContinueResult {
  const spec = active.spec;
  if (spec.type === 'run') {
    spec.pattern.lastIndex = pos;
    const matched = spec.pattern.exec(text);
    const end = matched === null ? pos : pos + matched[0].length;
    if (final || matched?.groups?.done !== undefined || end + spec.hold < text.length)
      return { pos: end, done: true };
    // The last `hold` characters were read without what follows them: consume them again later.
    return { pos: Math.max(pos, Math.min(end, text.length - spec.hold)), done: false };
  }
  return spec.quote.length === 1
    ? consumeQuoted(text, pos, active, final, spec.quote.charCodeAt(0))
    : consumeEscapedQuoted(text, pos, final, spec.quote.charCodeAt(1));
}

/** Up to an unescaped quote or a line end; a backslash escapes the next character. */
function consumeQuoted(
  text: string,
  pos: number,
  active: ActiveContinuation,
  final: boolean,
  quote: number,
): ContinueResult {
  let i = pos;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === lineFeed || code === carriageReturn) return { pos: i, done: true };
    if (active.escaped) active.escaped = false;
    else if (code === quote) return { pos: i, done: true };
    else if (code === backslash) active.escaped = true;
    i++;
  }
  return { pos: i, done: final };
}

/** Up to `\"` (the quote of a JSON document embedded in a JSON string) or a line end. */
function consumeEscapedQuoted(text: string, pos: number, final: boolean, quote: number): ContinueResult {
  let i = pos;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === lineFeed || code === carriageReturn) return { pos: i, done: true };
    if (code === backslash) {
      // Whether this backslash opens the closing `\"` depends on the next character: wait for it.
      if (i + 1 === text.length) return final ? { pos: i + 1, done: true } : { pos: i, done: false };
      const next = text.charCodeAt(i + 1);
      if (next === quote) return { pos: i, done: true };
      i += next === lineFeed || next === carriageReturn ? 1 : 2;
      continue;
    }
    i++;
  }
  return { pos: i, done: final };
}
