/** The capability gate's judgement of one call, kept on its state (`internal/assess-call.ts` makes it). */
import type { ApprovalGround } from '../spec/index.js';
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

export interface CallAssessment {
  /** Set when the batch's policy forbids the tool's level: the call is refused. */
  refusal?: string;
  /** Why the call needs a human's yes; empty when it does not. */
  approvalReasons: string[];
  /** The same, as grounds an approval lookup can reason about. */
  grounds: ApprovalGround[];
  risk: RiskLevel;
}
