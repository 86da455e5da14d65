import type { SecretKind } from '../secret-kind.js';

/**
 * How the rest of a secret is consumed once its head has matched. Consumed text produces no output
 * (the marker stands for all of it), so a continuation may run for any length without holding back
 * a stream.
 *
 * - `run`: a sticky regular expression; `hold` bounds how far past a position it reads to decide
 *   whether to consume it (1 for "a dot, if a token character follows"). Any position it passes is
 *   a valid restarting point, and a named group `done` that matched ends the secret at once.
 * - `quoted`: everything up to the closing quote (not included) or the end of the line. `quote` is
 *   `"`, `'`, `` ` `` or a backslash-escaped quote (`\"`) for JSON that is itself inside a string.
 */
export type Continuation =
  | { readonly type: 'run'; readonly pattern: RegExp; readonly hold: number }
  | { readonly type: 'quoted'; readonly quote: string };

/**
 * One entry of the pattern table. The scanner finds candidate positions by their triggers, then
 * decides with `head`, run on a bounded slice of the text that starts at the candidate. Because the
 * slice is bounded by `window` (and cut short after the first `stop` character), the decision never
 * depends on text further away: that is what makes the scan linear and lets a stream decide early.
 */
export interface SecretRule {
  readonly kind: SecretKind;
  /** Lower-case literal prefixes, matched case-insensitively at the candidate position. */
  readonly triggers: readonly string[];
  /** Sticky; a named group `keep` at its start is the part that stays in the output (a key name). */
  readonly head: RegExp;
  /** The most characters `head` may read from the candidate position. */
  readonly window: number;
  /** A global single-character class; the slice ends `stopTail` characters after its first match. */
  readonly stop?: RegExp;
  readonly stopTail?: number;
  /** The character before the candidate (as output) must not be a token character `[A-Za-z0-9_-]`. */
  readonly boundary?: boolean;
  /** After `keep`, try the `delegateTarget` rules first, so that `api_key=sk-…` says `openai-key`. */
  readonly delegate?: boolean;
  /** A self-identifying token that a key-value rule may hand its value to. */
  readonly delegateTarget?: boolean;
  /**
   * Refuses a match the head made, from its context: `slice` is what the head read, `before` up to 48
   * characters of text before the candidate (as emitted, so a stream decides as the whole text does).
   */
  readonly reject?: (found: { match: RegExpExecArray; slice: string; before: string }) => boolean;
  /** What consumes the rest of the secret after the head (none: the head is the whole secret). */
  readonly continueWith?: (match: RegExpExecArray) => Continuation | undefined;
}
