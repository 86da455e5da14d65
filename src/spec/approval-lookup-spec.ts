/**
 * How the tool pipeline asks whether a call that needs approval has one (DESIGN.md invariant 7). The
 * human-in-the-loop layer answers from its durable approval records; an approval binds to the call's
 * idempotency key and the hash of its exact arguments, so changed arguments read as `none`.
 */
export type ApprovalState = 'approved' | 'denied' | 'none';

/**
 * Why a call needs approval: the tool says so (`tool`), its capability level (`level`), the lethal
 * trifecta on the tool itself (`trifecta-tool`), across the tools offered with it (`trifecta-offered`),
 * or untrusted content already in the context (`taint`).
 */
export type ApprovalGround = 'tool' | 'level' | 'trifecta-tool' | 'trifecta-offered' | 'taint';

/** One call waiting for a yes. */
export interface ApprovalRequest {
  /** Thread + turn + call id: stable across retries, resumes and approvals. */
  idempotencyKey: string;
  /** `stableHash` of the parsed arguments. */
  argsHash: string;
  callId: string;
  toolName: string;
  /** The parsed arguments the call would run with, so a lookup can tell them from the ones a person saw. */
  input?: unknown;
  grounds: ApprovalGround[];
  /** The grounds in words, for the human. */
  reason: string;
}

export interface ApprovalLookup {
  /** `denied` is final for the call; `none` suspends it with an approval request. */
  isApproved(request: ApprovalRequest): Promise<ApprovalState>;
}
