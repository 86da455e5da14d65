/**
 * A remote A2A agent this agent may delegate to, and how delegation reaches it.
 */
import { defaultBounds } from '../spec/index.js';

export interface A2AAgentReference {
  /** The name the model uses in `delegate_to_agent`. */
  id: string;
  /** Base URL of the agent; its card is read from `<url>/.well-known/agent-card.json` unless `cardPath` says otherwise. */
  url: string;
  /** Shown to the planner; defaults to the description on the agent's card. */
  description?: string;
  cardPath?: string;
  /** Sent with every request (e.g. `Authorization`); values are never logged. */
  headers?: Record<string, string>;
  /** `auto` streams when the card says the agent can, else polls. */
  mode?: 'auto' | 'stream' | 'poll';
}

/** Bounds of one delegation; defaults in the `a2a` row of the one table (`defaultBounds`, DESIGN.md §5). */
export interface A2ADelegationLimits {
  /** Time between two `getTask` polls. */
  pollIntervalMs: number;
  /** Longest wait for a remote task to finish or ask something, on the injected clock. */
  timeoutMs: number;
}

export const defaultA2ADelegationLimits: Readonly<A2ADelegationLimits> = defaultBounds.a2a;
