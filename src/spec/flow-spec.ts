/**
 * Data-only contracts for flows (seed 001): their definition, their slots, and a flow instance as it
 * sits on the stack.
 */

/** Intents every domain has, plus the domain's own (seed 000's default four are listed here). */
export type Intent =
  | 'plan'
  | 'converse'
  | 'internal'
  | 'read'
  | 'prepare'
  | 'transform'
  | 'schedule'
  | (string & {});

export type SlotPriority = 'required' | 'elective' | 'optional';

export type SlotType =
  | 'text'
  | 'number'
  | 'category'
  | 'range'
  | 'date'
  | 'entity'
  | 'list'
  | 'dictionary'
  | 'free-text';

export interface SlotSpec {
  name: string;
  description: string;
  priority: SlotPriority;
  type: SlotType;
  /** Allowed values of a `category` slot. */
  options?: string[];
  /** Elective slots with the same group: at least one of them must be filled. */
  group?: string;
  /** The question asked when the slot is missing. */
  question?: string;
}

export interface FlowSpecV1 {
  readonly specVersion: 1;
  name: string;
  intent: Intent;
  description: string;
  slots: SlotSpec[];
  /** Names of the 1–3 flow-specific tools the skill may call. */
  tools: string[];
  /** The skill's instructions (a template; `{{slot}}` placeholders are filled from slot values). */
  skill: string;
  /** How the skill knows it is done; read by verification and the reflection pass. */
  successCriteria?: string;
  /** `simple` or `complex`; decides loop bounds (DESIGN.md §5). */
  complexity?: 'simple' | 'complex';
}

export type FlowSpec = FlowSpecV1;

export type FlowStatus = 'pending' | 'active' | 'completed' | 'invalid';

/** A flow instance on the stack. Survives a JSON round trip. */
export interface FlowInstance {
  id: string;
  name: string;
  status: FlowStatus;
  slots: Record<string, unknown>;
  planId?: string;
  /** Set on completion: what the flow produced (a display frame or a scratchpad summary). */
  result?: unknown;
  /** How many flow-level retries recover() has spent. */
  retries: number;
}
