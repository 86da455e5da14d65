/**
 * Internal flows in the background (seed 001 concurrency model): pure helpers that say which scheduled
 * flows may start now (every dependency Completed) and which can never start (a dependency failed).
 */
import type { FlowInstance } from '../spec/index.js';
import type { InternalFlowRequest } from './flow-hooks.js';

/** Pending background flows whose dependencies have all completed, in schedule order. */
export function readyBackgroundFlows(background: readonly FlowInstance[]): FlowInstance[] {
  const status = new Map(background.map((f) => [f.id, f.status]));
  return background.filter(
    (f) => f.status === 'pending' && (f.dependsOn ?? []).every((id) => status.get(id) === 'completed'),
  );
}

/** Pending background flows that wait on a flow that failed (or is gone): they will never run. */
export function blockedBackgroundFlows(background: readonly FlowInstance[]): FlowInstance[] {
  const status = new Map(background.map((f) => [f.id, f.status]));
  return background.filter(
    (f) =>
      f.status === 'pending' &&
      (f.dependsOn ?? []).some((id) => {
        const s = status.get(id);
        return s === undefined || s === 'invalid';
      }),
  );
}

/**
 * Turns requests (whose `dependsOn` name other requests of the same batch, or flows already in the
 * background) into instances with ids; a dependency on an unknown name is dropped.
 */
export function toBackgroundFlows(
  requests: readonly InternalFlowRequest[],
  options: { ids: (prefix: string) => string; existing?: readonly FlowInstance[] },
): FlowInstance[] {
  const byName = new Map<string, string>();
  for (const f of options.existing ?? [])
    if (f.status === 'pending' || f.status === 'active') byName.set(f.name, f.id);
  return requests.map((request) => {
    const id = options.ids('flow');
    const dependsOn = (request.dependsOn ?? []).flatMap((name) => {
      const found = byName.get(name);
      return found === undefined ? [] : [found];
    });
    byName.set(request.flow, id);
    const flow: FlowInstance = {
      id,
      name: request.flow,
      status: 'pending',
      slots: { ...request.slots },
      retries: 0,
    };
    if (dependsOn.length > 0) flow.dependsOn = dependsOn;
    return flow;
  });
}
