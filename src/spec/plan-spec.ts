/**
 * Data-only contracts of plans (seeds 001 and 002), version 1: the TodoList a Plan flow owns, the
 * plan's state as it is saved in the thread snapshot (`extensions.plan`), the changes a `plan-update`
 * observation carries, the step output table, and the execution settings of a plan.
 */
import type { SuspendedRun } from './hitl-spec.js';
import type { JsonValue } from './json-schema.js';

/** Where one item is in its life. `waiting` means it needs the user (a question or a suspended tool). */
export type TodoItemStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'waiting';

/** A step that must act on the world through tools, or one that only reasons over what is known. */
export type StepType = 'tool' | 'reasoning';

/** One item of a TodoList. Survives a JSON round trip. */
export interface TodoItem {
  /** Runtime-assigned and stable for the item's whole life; the id of its sub-flow and `parentId` of its events. */
  id: string;
  description: string;
  /** The flow the item runs as, when one fits; absent for a generic step. */
  flow?: string;
  /** Slot values for `flow`. */
  slots?: Record<string, JsonValue>;
  /** Ids of items that must be completed (or cancelled as unneeded) before this one runs. */
  dependsOn: string[];
  stepType: StepType;
  /** Tools the step must actually call before it may report success (seed 002 TAEF). */
  requiredTools: string[];
  expectedOutcome?: string;
  status: TodoItemStatus;
  /** One line saying what the item produced or why it failed; the full output is in the step output table. */
  summary?: string;
  /** The turn whose id keys this item's tool calls; kept when a crashed run is resumed so journaled results are reused. */
  runTurnId?: string;
  /** Runs started, counting enforcement retries and re-runs after a restart. */
  attempts: number;
  /** Set on an item that replaces a failed one (failure policy `re-route`). */
  replaces?: string;
}

/** An item with its position in the list, as `plan-update` changes report it. */
export type PositionedTodoItem = TodoItem & { position: number };

/** One modified item: its state before and after, and the fields that changed (`position` when it moved). */
export interface TodoItemChange {
  id: string;
  before: PositionedTodoItem;
  after: PositionedTodoItem;
  fields: string[];
}

/** What changed between two versions of a TodoList (seed 002 change tracking). */
export interface TodoListChanges {
  added: PositionedTodoItem[];
  modified: TodoItemChange[];
  removed: PositionedTodoItem[];
}

/** What the plan does when an item fails; set per agent. */
export type FailurePolicy = 'stop-and-synthesize' | 'skip-and-continue' | 're-route';

/** Why the plan cannot go on without the user. */
export type PlanWaiting =
  | { kind: 'slot'; itemId: string }
  | { kind: 'question'; itemId: string; question: string; feedback?: string }
  | {
      /**
       * The item's skill run is suspended (seed 002 HITL): its checkpoint and every question of the step,
       * answered through `agent.resume` or a chat message; the item goes on once all are answered.
       */
      kind: 'skill';
      itemId: string;
      run: SuspendedRun;
    };

/** The synthesized answer: main content for the reply, metadata for a UI. */
export interface PlanSynthesis {
  content: string;
  sources: string[];
  suggestedQuestions: string[];
}

export type PlanStatus = 'active' | 'completed' | 'abandoned';

/** A plan as saved in `ThreadSnapshot.extensions.plan`. */
export interface PlanStateV1 {
  readonly specVersion: 1;
  /** The id of the Plan flow that owns it; every sub-flow carries it as `planId`. */
  id: string;
  objective: string;
  title: string;
  status: PlanStatus;
  items: TodoItem[];
  /** Increases with every change of `items`. */
  revision: number;
  /** Times the Plan policy reviewed a settled list and stacked more work. */
  rounds: number;
  failurePolicy: FailurePolicy;
  /** History seq before the plan's first row; step outputs are read after it. */
  startSeq: number;
  waiting?: PlanWaiting;
  synthesis?: PlanSynthesis;
}

export type PlanState = PlanStateV1;

/** One row of the step output table (history kind `step-output`). */
export interface StepOutputEntry {
  planId: string;
  itemId: string;
  description: string;
  stepType: StepType;
  status: TodoItemStatus;
  /** The step's result and its tools' outputs as text, redacted, at most `maxStepOutputChars`. */
  output: string;
  /** Characters left out to keep within the bound. */
  omittedChars: number;
  completedAt: number;
}
