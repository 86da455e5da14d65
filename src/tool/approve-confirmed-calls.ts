/**
 * An approval lookup for a yes the user already gave before the skill ran: the policy's confirmation
 * question ("This will email the report (to: ada@example.com). Shall I go ahead?"). The yes is bound
 * to what the user saw: it approves one call of each confirmed tool, only on the grounds the user saw —
 * the tool needing approval, its trifecta tags, its level — and only when every argument of the call is
 * one of the values shown, under its slot's name. A call with another value (`to: attacker@…`), with an
 * argument the user never saw, one that needs approval because of what happened after the yes
 * (untrusted content in the context, the tools offered together), or a second call of the same tool goes
 * to `fallback`, or suspends for its own approval, which shows every argument.
 */
import type { ApprovalGround, ApprovalLookup } from '../spec/index.js';
import { stableHash } from '../util/index.js';

const confirmable: ReadonlySet<ApprovalGround> = new Set(['tool', 'trifecta-tool', 'level']);

export interface ApproveConfirmedCallsOptions {
  /** Tools the user's confirmation covers. */
  toolNames: readonly string[];
  /**
   * The values the user saw in the confirmation, by slot name. A call is covered only when each of its
   * arguments carries one of these names and its value. Without it, a call is covered only when it has
   * no arguments.
   */
  shown?: Readonly<Record<string, unknown>>;
  /** Asked about every call the confirmation does not cover. */
  fallback?: ApprovalLookup;
}

export function approveConfirmedCalls(options: ApproveConfirmedCallsOptions): ApprovalLookup {
  const confirmed = new Set(options.toolNames);
  const shown = options.shown ?? {};
  /** The call each tool's confirmation was spent on (asked again for the same call, it still holds). */
  const spent = new Map<string, string>();
  return {
    async isApproved(request) {
      const key = `${request.idempotencyKey}|${request.argsHash}`;
      const covered =
        confirmed.has(request.toolName) &&
        request.grounds.every((ground) => confirmable.has(ground)) &&
        (spent.get(request.toolName) ?? key) === key &&
        wasShown(request.input, shown);
      if (covered) {
        spent.set(request.toolName, key);
        return 'approved';
      }
      return options.fallback ? options.fallback.isApproved(request) : 'none';
    },
  };
}

/** Every argument of the call is a value the user saw, under the name they saw it by. */
function wasShown(input: unknown, shown: Readonly<Record<string, unknown>>): boolean {
  if (input === undefined || input === null) return true;
  if (typeof input !== 'object' || Array.isArray(input)) return false;
  return Object.entries(input).every(
    ([name, value]) =>
      value === undefined || (Object.hasOwn(shown, name) && stableHash(value) === stableHash(shown[name])),
  );
}
