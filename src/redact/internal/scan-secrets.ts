import { formatRedactionMarker } from '../redaction-marker.js';
import type { SecretKind } from '../secret-kind.js';
import type { CandidateRule, SecretScanner } from './compile-secret-scanner.js';
import { type ActiveContinuation, continueSecret } from './continue-secret.js';
import { findStop, type StopMemo } from './find-stop.js';
import type { Continuation } from './secret-rule.js';

/** What a scan carries from one chunk to the next. */
export interface ScanState {
  /** A secret whose remainder is still being consumed. */
  continuation: ActiveContinuation | undefined;
  /** The last character emitted (a marker ends with `]`), or -1; token rules look at it. */
  lastChar: number;
  /** The last characters emitted (at most `recentLength`), which a rule's `reject` reads as context. */
  recent: string;
}

/** How much emitted text a rule may look back at. */
const recentLength = 48;

/** The state of a text not yet started. */
export function createScanState(): ScanState {
  return { continuation: undefined, lastChar: -1, recent: '' };
}

/** What one call of {@link scanSecrets} decided. */
export interface ScanResult {
  readonly output: string;
  /** How much of the text is decided (emitted or consumed); the rest must be scanned again. */
  readonly consumed: number;
  /** Waiting on a candidate: it is decidable once the text is this long, or `wake` matches new text. */
  readonly need?: number;
  readonly wake?: RegExp | undefined;
}

interface Match {
  readonly keepEnd: number;
  readonly end: number;
  readonly kind: SecretKind;
  readonly continuation: Continuation | undefined;
}
interface Wait {
  readonly need: number;
  readonly wake: RegExp | undefined;
}
const closingBracket = 0x5d;

/**
 * Scans `text` once from left to right. At every trigger position the rules are tried in table
 * order on a bounded slice; the first match is replaced by its marker and its remainder consumed.
 * With `final` false the text may continue in a later chunk: the scan then stops before anything it
 * cannot decide yet, and the caller scans the rest again with more text. Deciding the same way in
 * both modes is what makes a stream's output equal to the redaction of the whole text.
 */
export function scanSecrets(
  scanner: SecretScanner,
  text: string,
  state: ScanState,
  final: boolean,
): ScanResult {
  const parts: string[] = [];
  let pos = 0;
  const emitUntil = (end: number): void => {
    if (end <= pos) return;
    parts.push(text.slice(pos, end));
    state.lastChar = text.charCodeAt(end - 1);
    state.recent = (state.recent + text.slice(Math.max(pos, end - recentLength), end)).slice(-recentLength);
  };
  const continueUntilDone = (): boolean => {
    if (state.continuation === undefined) return true;
    const result = continueSecret(text, pos, state.continuation, final);
    pos = result.pos;
    if (result.done) state.continuation = undefined;
    return result.done;
  };
  if (!continueUntilDone()) return { output: '', consumed: pos };
  // From here on the text could be the start of a trigger: wait for more text.
  const holdFrom = final
    ? text.length
    : partialTriggerStart(scanner, text, text.length - scanner.maxTriggerLength + 1);
  const stops = new Map<RegExp, StopMemo>();
  let from = pos;
  for (;;) {
    scanner.triggerPattern.lastIndex = from;
    const found = scanner.triggerPattern.exec(text);
    if (found === null || found.index >= holdFrom) {
      const end = Math.max(pos, holdFrom);
      emitUntil(end);
      return { output: parts.join(''), consumed: end };
    }
    const candidate = found.index;
    const previous = candidate === pos ? state.lastChar : text.charCodeAt(candidate - 1);
    const rules = scanner.rules.get(found[0].toLowerCase());
    const before = (): string =>
      (state.recent + text.slice(Math.max(pos, candidate - recentLength), candidate)).slice(-recentLength);
    const decision = decideAt(scanner, rules, { text, at: candidate, previous, final, stops, before });
    if (decision === undefined) {
      from = candidate + 1;
      continue;
    }
    if (!('kind' in decision)) {
      emitUntil(candidate);
      return { output: parts.join(''), consumed: candidate, need: decision.need, wake: decision.wake };
    }
    emitUntil(decision.keepEnd);
    const marker = formatRedactionMarker(decision.kind);
    parts.push(marker);
    state.lastChar = closingBracket;
    state.recent = (state.recent + marker).slice(-recentLength);
    pos = decision.end;
    if (decision.continuation !== undefined) {
      state.continuation = { spec: decision.continuation, escaped: false };
      if (!continueUntilDone()) return { output: parts.join(''), consumed: pos };
    }
    from = pos;
  }
}

/** Where a candidate is decided: the text, the position and what precedes it. */
interface Place {
  readonly text: string;
  readonly at: number;
  /** The character before `at` as emitted, or -1. */
  readonly previous: number;
  readonly final: boolean;
  readonly stops: Map<RegExp, StopMemo>;
  /** Up to `recentLength` characters before `at`, as emitted (read only by a rule's `reject`). */
  readonly before: () => string;
}

/** The first rule that matches at `at`, `undefined` for none, or a `Wait` when the slice is incomplete. */
function decideAt(
  scanner: SecretScanner,
  rules: readonly CandidateRule[] | undefined,
  place: Place,
): Match | Wait | undefined {
  if (rules === undefined) return undefined;
  const { text, at, previous, final, stops } = place;
  for (const { rule, triggerLength } of rules) {
    if (rule.boundary === true && isTokenChar(previous)) continue;
    let end = at + rule.window;
    let wake = rule.stop;
    if (rule.stop !== undefined) {
      const stop = findStop(rule.stop, text, at + triggerLength, end, stops);
      if (stop >= 0) {
        end = Math.min(end, stop + (rule.stopTail ?? 1));
        wake = undefined;
      }
    }
    if (end > text.length) {
      if (!final) return { need: end, wake };
      end = text.length;
    }
    rule.head.lastIndex = 0;
    const slice = text.slice(at, end);
    const match = rule.head.exec(slice);
    if (match === null) continue;
    if (rule.reject?.({ match, slice, before: place.before() })) continue;
    const keepEnd = at + (match.groups?.keep?.length ?? 0);
    if (rule.delegate === true && keepEnd > at) {
      const delegated = delegateAt(scanner, text, keepEnd, final, stops);
      if (delegated !== undefined) return delegated;
    }
    return { keepEnd, end: at + match[0].length, kind: rule.kind, continuation: rule.continueWith?.(match) };
  }
  return undefined;
}

/** A self-identifying token at the start of a key-value rule's value, which names the kind better. */
function delegateAt(
  scanner: SecretScanner,
  text: string,
  at: number,
  final: boolean,
  stops: Map<RegExp, StopMemo>,
): Match | Wait | undefined {
  if (!final && (at === text.length || isTriggerPrefix(scanner, text, at))) {
    return { need: text.length + 1, wake: undefined };
  }
  scanner.triggerAt.lastIndex = at;
  const found = scanner.triggerAt.exec(text);
  if (found === null) return undefined;
  const rules = scanner.delegateTargets.get(found[0].toLowerCase());
  const previous = text.charCodeAt(at - 1);
  return decideAt(scanner, rules, { text, at, previous, final, stops, before: () => '' });
}

/** The first position from `from` on where a trigger may be starting (see below), else the length. */
function partialTriggerStart(scanner: SecretScanner, text: string, from: number): number {
  for (let at = Math.max(0, from, text.length - scanner.maxTriggerLength + 1); at < text.length; at++) {
    if (isTriggerPrefix(scanner, text, at)) return at;
  }
  return text.length;
}

/** Whether the rest of the text from `at` is a proper prefix of a trigger, which more text may complete. */
function isTriggerPrefix(scanner: SecretScanner, text: string, at: number): boolean {
  if (at >= text.length || text.length - at >= scanner.maxTriggerLength) return false;
  let node = scanner.triggerTrie;
  for (let index = at; index < text.length; index++) {
    const next = node.get(toLowerAscii(text.charCodeAt(index)));
    if (next === undefined) return false;
    node = next;
  }
  return node.size > 0;
}

function toLowerAscii(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
}

/** `[A-Za-z0-9_-]`: a token must not start right after one of these. */
function isTokenChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f ||
    code === 0x2d
  );
}
