import { FlowstackError } from './flowstack-error.js';

/** One thing wrong with a TodoList. */
export type PlanProblem =
  | { kind: 'empty' }
  | { kind: 'too-many-items'; count: number; max: number }
  | { kind: 'duplicate-id'; itemId: string }
  | { kind: 'unknown-dependency'; itemId: string; dependency: string }
  | { kind: 'cycle'; itemIds: string[] }
  | { kind: 'unknown-flow'; itemId: string; flow: string }
  | { kind: 'unknown-tool'; itemId: string; tool: string };

export type PlanErrorReason = 'invalid_plan' | 'illegal_transition' | 'unknown_item';

/**
 * A plan cannot be accepted or changed as asked: the TodoList has cycles, unknown dependencies, unknown
 * flows or tools (`invalid_plan`, every problem listed), an item would move to a status it cannot reach
 * (`illegal_transition`), or an item id does not exist (`unknown_item`). The plan is left as it was.
 */
export class PlanError extends FlowstackError {
  readonly reason: PlanErrorReason;
  readonly problems: PlanProblem[];
  constructor(options: { reason: PlanErrorReason; message: string; problems?: PlanProblem[] }) {
    const problems = options.problems ?? [];
    const detail = problems.length > 0 ? `\n- ${problems.map(describePlanProblem).join('\n- ')}` : '';
    super({ name: 'PlanError', code: `plan_${options.reason}`, message: `${options.message}${detail}` });
    this.reason = options.reason;
    this.problems = problems;
  }
  override toJSON() {
    return { ...super.toJSON(), reason: this.reason, problems: this.problems };
  }
}

/** A problem as one line a person (or a model asked to fix its plan) can act on. */
export function describePlanProblem(problem: PlanProblem): string {
  switch (problem.kind) {
    case 'empty':
      return 'the plan has no items';
    case 'too-many-items':
      return `the plan has ${problem.count} items; at most ${problem.max} are allowed`;
    case 'duplicate-id':
      return `two items have the id '${problem.itemId}'`;
    case 'unknown-dependency':
      return `item '${problem.itemId}' depends on '${problem.dependency}', which is not in the plan`;
    case 'cycle':
      return `items depend on each other in a cycle: ${problem.itemIds.join(' → ')}`;
    case 'unknown-flow':
      return `item '${problem.itemId}' names the flow '${problem.flow}', which does not exist`;
    case 'unknown-tool':
      return `item '${problem.itemId}' requires the tool '${problem.tool}', which does not exist`;
  }
}
