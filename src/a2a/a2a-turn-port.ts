/**
 * What the A2A endpoint needs of an agent. `a2a/` sits below `agent/` in the layer order, so it names
 * the agent's methods structurally; `createAgent()`'s agent satisfies this interface.
 */
import type { SubscribeObservations } from '../observe/index.js';
import type { Observation, StateStore } from '../spec/index.js';

export interface A2ATurn {
  threadId: string;
  turnId: string;
  status: 'completed' | 'needs-input' | 'suspended' | 'failed';
  reply: string;
  frames: readonly unknown[];
  observations: readonly Observation[];
}

export interface A2ATurnPort {
  send(options: {
    threadId: string;
    text: string;
    principal?: string;
    signal?: AbortSignal;
  }): Promise<A2ATurn>;
  /** Answers a suspension; present once the agent has the durability layer. */
  resume?(options: {
    threadId: string;
    suspensionId: string;
    feedback: unknown;
    principal?: string;
    signal?: AbortSignal;
  }): Promise<A2ATurn>;
  subscribe: SubscribeObservations;
  /** With the A2A task methods, tasks are kept there and outlive the process; else in memory. */
  readonly store: Pick<
    StateStore,
    'loadThread' | 'readObservations' | 'saveA2ATask' | 'loadA2ATask' | 'listA2ATasks'
  >;
}
