/**
 * How an agent plans (`createAgent({ plan })`), and the plan loop's own bounds, whose defaults are the
 * `plan` row of the one table (`defaultBounds`, DESIGN.md §5).
 */
import { defaultBounds, type FailurePolicy } from '../spec/index.js';

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
  ...defaultBounds.plan,
};
