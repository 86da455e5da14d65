/**
 * An approval lookup for a yes the user already gave before the skill ran: the policy's confirmation
 * question ("This will email the report to ada@example.com. Shall I go ahead?"). It approves one call of
 * each confirmed tool, and only on the grounds the user saw — the tool needing approval, its trifecta
 * tags, its level. A call that needs approval because of what happened after the yes (untrusted content
 * in the context, the tools offered together) or a second call of the same tool goes to `fallback`, or
 * suspends for its own approval.
 */
import type { ApprovalGround, ApprovalLookup } from '../spec/index.js';

const confirmable: ReadonlySet<ApprovalGround> = new Set(['tool', 'trifecta-tool', 'level']);

export interface ApproveConfirmedCallsOptions {
  /** Tools the user's confirmation covers. */
  toolNames: readonly string[];
  /** Asked about every call the confirmation does not cover. */
  fallback?: ApprovalLookup;
}

export function approveConfirmedCalls(options: ApproveConfirmedCallsOptions): ApprovalLookup {
  const confirmed = new Set(options.toolNames);
  /** The call each tool's confirmation was spent on (asked again for the same call, it still holds). */
  const spent = new Map<string, string>();
  return {
    async isApproved(request) {
      const key = `${request.idempotencyKey}|${request.argsHash}`;
      const covered =
        confirmed.has(request.toolName) &&
        request.grounds.every((ground) => confirmable.has(ground)) &&
        (spent.get(request.toolName) ?? key) === key;
      if (covered) {
        spent.set(request.toolName, key);
        return 'approved';
      }
      return options.fallback ? options.fallback.isApproved(request) : 'none';
    },
  };
}
