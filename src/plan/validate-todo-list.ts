/**
 * TodoList validation: ids unique, every dependency known, no cycles, flows and tools that exist, and
 * the size bound. Pure; `assertValidTodoList` turns problems into a typed `PlanError`.
 */
import { PlanError, type PlanProblem } from '../errors/index.js';

/** The minimum of an item validation reads, so drafts and items are checked the same way. */
export interface ValidatableItem {
  id: string;
  dependsOn: readonly string[];
  flow?: string | undefined;
  requiredTools?: readonly string[] | undefined;
}

/** What may be named: flows items can run as and tools they can require. Unset parts are not checked. */
export interface PlanCatalog {
  flows?: ReadonlySet<string>;
  tools?: ReadonlySet<string>;
}

export interface ValidateTodoListOptions {
  catalog?: PlanCatalog;
  maxItems?: number;
}

export function findTodoListProblems(
  items: readonly ValidatableItem[],
  options: ValidateTodoListOptions = {},
): PlanProblem[] {
  const problems: PlanProblem[] = [];
  if (items.length === 0) problems.push({ kind: 'empty' });
  if (options.maxItems !== undefined && items.length > options.maxItems)
    problems.push({ kind: 'too-many-items', count: items.length, max: options.maxItems });
  const byId = new Map<string, ValidatableItem>();
  for (const item of items) {
    if (byId.has(item.id)) problems.push({ kind: 'duplicate-id', itemId: item.id });
    byId.set(item.id, item);
  }
  for (const item of items) {
    for (const dependency of item.dependsOn)
      if (!byId.has(dependency)) problems.push({ kind: 'unknown-dependency', itemId: item.id, dependency });
    const { flows, tools } = options.catalog ?? {};
    if (item.flow !== undefined && flows && !flows.has(item.flow))
      problems.push({ kind: 'unknown-flow', itemId: item.id, flow: item.flow });
    for (const tool of item.requiredTools ?? [])
      if (tools && !tools.has(tool)) problems.push({ kind: 'unknown-tool', itemId: item.id, tool });
  }
  for (const cycle of findCycles(byId)) problems.push({ kind: 'cycle', itemIds: cycle });
  return problems;
}

/** Throws a `PlanError` listing every problem, or returns quietly. */
export function assertValidTodoList(
  items: readonly ValidatableItem[],
  options: ValidateTodoListOptions = {},
): void {
  const problems = findTodoListProblems(items, options);
  if (problems.length > 0)
    throw new PlanError({ reason: 'invalid_plan', message: 'The plan is not valid.', problems });
}

/** Each cycle once, as the path that closes it (`a → b → a`); depth-first with three colours. */
function findCycles(byId: ReadonlyMap<string, ValidatableItem>): string[][] {
  const colour = new Map<string, 'grey' | 'black'>();
  const cycles: string[][] = [];
  const path: string[] = [];
  const visit = (id: string): void => {
    colour.set(id, 'grey');
    path.push(id);
    for (const next of byId.get(id)?.dependsOn ?? []) {
      if (!byId.has(next)) continue;
      const seen = colour.get(next);
      if (seen === 'grey') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    path.pop();
    colour.set(id, 'black');
  };
  for (const id of byId.keys()) if (!colour.has(id)) visit(id);
  return cycles;
}
