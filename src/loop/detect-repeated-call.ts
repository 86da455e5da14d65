/**
 * Loop detection (seed 004): the same tool called again and again with the same arguments will not
 * give a different answer. Calls are compared by tool name and canonical arguments, so key order and
 * whitespace do not hide a repeat. The counts live in the loop state.
 */
import { stableHash } from '../util/index.js';

/**
 * A call's identity: tool name plus a hash of the arguments made canonical (the raw text when they do not
 * parse). `parsed`, when given, is `input` already parsed, and is not parsed again. The counts are saved
 * with a suspended run, so the arguments (which may hold secrets, DESIGN.md invariant 8) are kept only as
 * a hash.
 */
export function callSignature(toolName: string, input: string, parsed?: unknown): string {
  return `${toolName}\u0000${stableHash(argumentsOf(input, parsed))}`;
}

function argumentsOf(input: string, parsed: unknown): unknown {
  const text = input.trim();
  if (text === '') return {};
  if (parsed !== undefined) return parsed;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Counts one more call with `signature` in `counts`, which it changes in place and returns (the run's
 * own record: copying it at every step would make a step's cost grow with the run). It is a repeat (a
 * loop) when this call reaches `limit` identical calls in the run; a limit of 0 turns detection off.
 */
export function recordCall(
  counts: Record<string, number>,
  signature: string,
  limit: number,
): { counts: Record<string, number>; count: number; repeated: boolean } {
  const count = (counts[signature] ?? 0) + 1;
  counts[signature] = count;
  return { counts, count, repeated: limit > 0 && count >= limit };
}
