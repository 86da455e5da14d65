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

const failurePolicies: readonly string[] = ['stop-and-synthesize', 'skip-and-continue', 're-route'];

/** Every problem of `createAgent({ plan })` settings: unknown names, values no plan can run with. */
export function checkPlanOptions(plan: Partial<PlanOptions>, path = 'plan'): string[] {
  const problems = Object.keys(plan)
    .filter((key) => !Object.hasOwn(defaultPlanOptions, key))
    .map((key) => `${path}.${key} is not an option flowstack knows`);
  for (const key of ['maxItems', 'maxRounds', 'latsMinItems'] as const) {
    const value = plan[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1))
      problems.push(`${path}.${key} must be a whole number ≥ 1 (got ${describe(value)})`);
  }
  if (plan.latsCandidates !== undefined && plan.latsCandidates !== 2 && plan.latsCandidates !== 3)
    problems.push(`${path}.latsCandidates must be 2 or 3 (got ${describe(plan.latsCandidates)})`);
  if (plan.treeSearch !== undefined && plan.treeSearch !== 'auto' && plan.treeSearch !== 'off')
    problems.push(`${path}.treeSearch must be 'auto' or 'off' (got ${describe(plan.treeSearch)})`);
  if (plan.failurePolicy !== undefined && !failurePolicies.includes(plan.failurePolicy))
    problems.push(
      `${path}.failurePolicy must be one of ${failurePolicies.join(', ')} (got ${describe(plan.failurePolicy)})`,
    );
  return problems;
}

function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}
