/**
 * Data-only contracts for flows (seed 001): their definition, their slots, and a flow instance as it
 * sits on the stack.
 */

/**
 * Intents every domain has (`plan`, `converse`, `internal`), plus the domain's own; seed 000's default
 * four (`read`, `prepare`, `transform`, `schedule`) are listed here.
 */
export type Intent =
  | 'plan'
  | 'converse'
  | 'internal'
  | 'read'
  | 'prepare'
  | 'transform'
  | 'schedule'
  | (string & {});

/** Required: must be filled. Elective: at least one slot of its group. Optional: never asked for. */
export type SlotPriority = 'required' | 'elective' | 'optional';

/**
 * What a slot holds. `category` is one of `options`; `range` a `[from, to]` pair of numbers or dates;
 * `date` an ISO date; `entity` a reference to a known thing (one of `entities` when given); `list` an
 * array (a checklist when `options` are given); `dictionary` an object; `free-text` any prose.
 */
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
  /** Allowed values of a `category` slot, or of the items of a checklist `list`. */
  options?: string[];
  /** Elective slots with the same group: at least one of them must be filled. */
  group?: string;
  /** The question asked when the slot is missing. */
  question?: string;
  /** Bounds of a `number` slot or of both ends of a numeric `range`. */
  min?: number;
  max?: number;
  /** A regular expression (source) a `text` or `entity` value must match. */
  pattern?: string;
  /** Known entities an `entity` slot may refer to (compared case-insensitively). */
  entities?: string[];
}

/** How a domain-intent flow's result is shown (seed 000 display frame). */
export type DisplayType = 'text' | 'table' | 'chart' | 'json';

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
  /**
   * Tools of `tools` the skill must have called successfully before it may finish with success (seed 002
   * TAEF): a success without them is sent back with a prompt naming them, up to `execution.enforcementRetries`
   * times, as plan items' required tools are.
   */
  requiredTools?: string[];
  /** `simple` or `complex`; decides loop bounds (DESIGN.md §5). */
  complexity?: 'simple' | 'complex';
  /** How the result is displayed; domain intents default to a table for rows, else JSON. */
  display?: { type: DisplayType; chartType?: string };
  /** A simpler flow `contemplate` falls back to when this one cannot finish (recovery step 3). */
  fallback?: string;
  /** An Internal flow pushed to gather context when this one is uncertain (recovery step 2). */
  gatherContext?: string;
  /** Internal flows only: names of Internal flows that must complete before this one starts. */
  dependsOn?: string[];
  /** Free-form data from the flow's SKILL.md frontmatter (`metadata`). */
  metadata?: Record<string, string>;
}

export type FlowSpec = FlowSpecV1;

export type FlowStatus = 'pending' | 'active' | 'completed' | 'invalid';

/** The steps of `recover()`'s escalation ladder (seed 000). */
export type RecoveryStep = 'retry' | 'gather-context' | 'contemplate' | 'escalate';

/** A flow instance on the stack. Survives a JSON round trip. */
export interface FlowInstance {
  id: string;
  name: string;
  status: FlowStatus;
  slots: Record<string, unknown>;
  /** Set on the sub-flows of a plan: the id of the Plan flow that owns them (DESIGN.md invariant 3). */
  planId?: string;
  /** Set on completion: what the flow produced (a display frame or a scratchpad summary). */
  result?: unknown;
  /** How many flow-level retries recover() has spent. */
  retries: number;
  /** Flow metadata; carried over to the new flow on a fallback. */
  metadata?: Record<string, unknown>;
  /** Recovery steps already spent on this flow, in order. */
  recovery?: RecoveryStep[];
  /** Background Internal flows: ids of the flows that must complete first. */
  dependsOn?: string[];
  /** An Internal flow pushed to gather context: the id of the flow it gathers for. */
  returnTo?: string;
  /** The slot values the user confirmed (a stable hash), for flows whose tools need approval. */
  confirmed?: string;
}
