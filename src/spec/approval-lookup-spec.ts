/**
 * How the tool pipeline asks whether a call that needs approval has one (DESIGN.md invariant 7). The
 * human-in-the-loop layer answers from its durable approval records; an approval binds to the call's
 * idempotency key and the hash of its exact arguments, so changed arguments read as `none`.
 */
export type ApprovalState = 'approved' | 'denied' | 'none';

export interface ApprovalLookup {
  /** `denied` is final for the call; `none` suspends it with an approval request. */
  isApproved(idempotencyKey: string, argsHash: string): Promise<ApprovalState>;
}
