/**
 * How an agent plans, and the plan loop's own bounds, declared once (DESIGN.md §5).
 */
import type { FailurePolicy } from '../spec/index.js';

export interface PlanOptions {
  /** What a failed item does to the plan. Default `skip-and-continue`. */
  failurePolicy: FailurePolicy;
  /**
   * Tree search over candidate plans (seed 001 LATS): `auto` uses it when a plan has `latsMinItems` or
   * more items or the model reports several valid strategies; `off` never.
   */
  treeSearch: 'auto' | 'off';
  /** Items a plan may hold, counting finished ones. */
  maxItems: number;
  /** Times the Plan policy may stack more work after reviewing a finished list. */
  maxRounds: number;
  /** Plan size from which `treeSearch: 'auto'` searches. */
  latsMinItems: number;
  /** Candidate plans LATS scores, the model's first plan included (2–3). */
  latsCandidates: 2 | 3;
}

export const defaultPlanOptions: Readonly<PlanOptions> = {
  failurePolicy: 'skip-and-continue',
  treeSearch: 'auto',
  maxItems: 20,
  maxRounds: 3,
  latsMinItems: 4,
  latsCandidates: 3,
};
