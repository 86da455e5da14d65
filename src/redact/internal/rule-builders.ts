import type { SecretKind } from '../secret-kind.js';
import type { Continuation, SecretRule } from './secret-rule.js';

/** Characters of an API token; also the "boundary" class a token must not follow. */
const tokenRun: Continuation = { type: 'run', pattern: /[A-Za-z0-9_-]*/y, hold: 0 };
const tokenStop = /[^A-Za-z0-9_-]/g;

/**
 * A self-identifying token (`sk-…`, `ghp_…`): `head` (case-sensitive) recognises it from its
 * prefix and a minimum length, and the rest of the token is consumed whatever its length.
 */
export function tokenRule(
  kind: SecretKind,
  triggers: readonly string[],
  head: string,
  overrides: Partial<SecretRule> = {},
): SecretRule {
  return {
    kind,
    triggers: triggers.map((trigger) => trigger.toLowerCase()),
    head: new RegExp(head, 'y'),
    window: 96,
    stop: tokenStop,
    stopTail: 1,
    boundary: true,
    delegateTarget: true,
    continueWith: () => tokenRun,
    ...overrides,
  };
}

/**
 * `password: "…"`, `"password":"…"`, `password=…`, `password = …` (INI), `password := …` and
 * `\"password\":\"…\"`. A space after `=` counts only with one before it or a quote after it, so
 * that `password= next words` is an empty value, not the password "next".
 */
const separator = String.raw`(?<kq>\\?["'])?[ \t]{0,8}(?<sep>:=|=>|:|=(?!=))(?:(?<=:)[ \t]{0,8}|(?<=[ \t](?::=|=>|=))[ \t]{0,8}|[ \t]{0,8}(?=\\?["'\x60]))?(?<q>\\?["'\x60])?`;
/** Characters that end an unquoted `key=value` value. */
const equalsStops = String.raw`\s"'\x60&,;<>)\]}`;
/** An unquoted `key: value` (YAML, headers) runs to the end of the line or a JSON-ish delimiter. */
const colonStops = String.raw`\r\n,;}\]`;
const literalValue = `(?:null|true|false|none|nil|undefined)(?![^${equalsStops}])`;
/** A value that is empty, a marker already, a template placeholder or a literal is left alone. */
const valueGuard = String.raw`(?!\[REDACTED:|\$\{|\{\{|\*{3})(?:(?<=["'\x60])(?=[^\r\n])(?!\\?["'\x60])|(?<!["'\x60])(?=[^${equalsStops}])(?!\\["'\x60]|${literalValue}))`;
/** The head reads separators up to the first other character, then at most this many more. */
const keyValueStop = /[^"'\\ \t:=>]/g;

const equalsRun: Continuation = { type: 'run', pattern: new RegExp(`[^${equalsStops}]*`, 'y'), hold: 0 };
const colonRun: Continuation = { type: 'run', pattern: new RegExp(`[^${colonStops}]*`, 'y'), hold: 0 };
/** A list value, to its closing bracket (lists of lists are cut at the first `]`) or the line end. */
const listRun: Continuation = { type: 'run', pattern: /[^\]\r\n]*(?<done>\])?/y, hold: 0 };

/** What varies between the key-value rules. */
export interface KeyValueRuleOptions {
  readonly kind: SecretKind;
  /** Lower-case spellings of the key; the key may carry any prefix (`DB_PASSWORD`, `x-api-key`). */
  readonly keywords: readonly string[];
  /** Regular-expression source after the separator, kept in the output (an auth scheme). */
  readonly scheme?: string;
  /** Extra regular-expression source the value must satisfy (a lookahead). */
  readonly valueCheck?: string;
  /** Continuation for an unquoted value (default: by separator, `=` stops at spaces, `:` at line end). */
  readonly unquoted?: Continuation;
  /** Whether a token at the start of the value names the kind instead (default true). */
  readonly delegate?: boolean;
  /** How far past the separators the head reads (default 24). */
  readonly stopTail?: number;
}

/**
 * A secret given as the value of a named key, in the forms `key=value`, `key: value` and JSON. The
 * key (and quote) stays, the value becomes the marker. Keys must end with the keyword, so
 * `token_count=5` or `max_tokens: 100` are not secrets.
 */
export function keyValueRule(options: KeyValueRuleOptions): SecretRule {
  const keywords = [...options.keywords].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const keep = `(?<keep>(?:${keywords.join('|')})${separator}${options.scheme ?? ''})`;
  const stopTail = options.stopTail ?? 24;
  return {
    kind: options.kind,
    triggers: options.keywords,
    // `list` notes a value that opens a list (`"passwords": ["a", "b"]`): all of it goes, up to `]`.
    head: new RegExp(`${keep}${valueGuard}${options.valueCheck ?? ''}(?:(?=(?<list>\\[))|)`, 'iy'),
    window: Math.max(...options.keywords.map((keyword) => keyword.length)) + 40 + stopTail,
    stop: keyValueStop,
    stopTail,
    delegate: options.delegate ?? true,
    reject: isProse,
    continueWith: (match) => {
      const quote = match.groups?.q;
      if (quote) return { type: 'quoted', quote };
      if (match.groups?.list !== undefined) return listRun;
      if (options.unquoted) return options.unquoted;
      return match.groups?.sep === ':' ? colonRun : equalsRun;
    },
  };
}

/** Words that make what follows a noun of a sentence: "the secret: …", "an api-key: …". */
const articleBefore = /(?:^|[^A-Za-z0-9_])(?:the|a|an|this|that|no|each|every|any)[ \t]+$/i;
/** A value of plain lower-case words to the line end (as far as the head read). */
const plainWords = /^[a-z][a-z ,.;!?]*(?:[\r\n]|$)/;

/**
 * "The secret: santa", "the api-key: field is required": a key named in a sentence, after an article,
 * with plain lower-case words for a value, is prose, not a setting. A value with a digit, a capital or
 * a symbol, a quoted one, or a key at the start of a line (YAML, headers) is still a secret.
 */
function isProse(found: { match: RegExpExecArray; slice: string; before: string }): boolean {
  const groups = found.match.groups ?? {};
  if (groups.sep !== ':' || groups.kq || groups.q) return false;
  // The candidate is the keyword; a key may carry a prefix (`x-` of `x-api-key`), which is skipped.
  const beforeKey = found.before.replace(/[A-Za-z0-9_-]*$/, '');
  if (!articleBefore.test(beforeKey)) return false;
  return plainWords.test(found.slice.slice(found.match[0].length));
}

/**
 * A command-line flag and its separate value: `--password hunter2`, `--db-password "…"`,
 * `--api-key x`. The flag must start a word and end with the keyword; a value starting with `-`
 * is the next flag. (`--password=x` is a key-value pair.)
 */
export function flagRule(kind: SecretKind, keywords: readonly string[]): SecretRule {
  const names = [...keywords].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const keep = String.raw`(?<keep>--(?:[A-Za-z0-9]{1,20}[_-]){0,4}(?:${names.join('|')})[ \t]{1,8}(?<q>["'\x60])?)`;
  return {
    kind,
    triggers: ['--'],
    head: new RegExp(`${keep}(?!-)${valueGuard}`, 'iy'),
    window: 160,
    stop: /[^A-Za-z0-9_-]/g,
    stopTail: 24,
    boundary: true,
    delegate: true,
    continueWith: (match) => (match.groups?.q ? { type: 'quoted', quote: match.groups.q } : equalsRun),
  };
}

/** A header value that is whole-line by nature (`Authorization: Digest …`, `Cookie: …`). */
export const wholeLine: Continuation = { type: 'run', pattern: /[^\r\n]*/y, hold: 0 };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
