/**
 * PEX `execute()` for the active flow (seed 000): pre-hook check → slot review → confirmation when a
 * tool needs approval → skill (flow tools + component tools) → hard-coded fallback → result processing
 * → completion → post-hook verify. It returns the next dialogue state and what happened as data; the
 * agent applies recovery actions, pops finished flows and composes the reply.
 */
import type { LanguageModelV3, LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { ConfigurationError } from '../errors/index.js';
import {
  type DialogueState,
  type FallbackTarget,
  type FlowDefinition,
  type InternalFlowRequest,
  transitionDialogue,
} from '../flow/index.js';
import {
  type RunSkillLoopOptions,
  runSkillLoop,
  type SkillLoopEvent,
  type SkillLoopLimits,
  type SkillLoopResult,
  type SkillLoopState,
} from '../loop/index.js';
import { type HistoryMessage, writeScratchpad } from '../memory/index.js';
import type { CreatedFrame } from '../respond/index.js';
import type { FlowInstance, PendingQuestion, ScratchpadEntry, SkillOutcome } from '../spec/index.js';
import { approveConfirmedCalls, createToolSet, type ToolBatchContext, type ToolSet } from '../tool/index.js';
import { type StopSource, stableHash } from '../util/index.js';
import { declareAmbiguity } from './ambiguity-handler.js';
import { type CheckProblem, checkFlow, checkSlots } from './check-flow.js';
import { sharedComponentTools } from './component-tools.js';
import { processResult } from './process-result.js';
import { reviewSlots } from './review-slots.js';
import { composeSkillPrompt } from './skill-prompt.js';
import { summarizeCompletion } from './summarize-completion.js';
import { type VerifyProblem, verifyFlow } from './verify-flow.js';

interface ExecutionBase {
  state: DialogueState;
  scratchpad: ScratchpadEntry[];
  events: SkillLoopEvent[];
  /** Slots the model filled from context during slot review. */
  filled: string[];
  /** Tools whose approval the trifecta gate forced. */
  gated: string[];
  /** The skill run's checkpoint (its messages and loop state), when the skill ran: a suspended run resumes from it. */
  checkpoint?: { messages: LanguageModelV3Message[]; state: SkillLoopState };
  /** Required-tool validation of a success (seed 002 TAEF), when required tools were given. */
  validation?: SkillLoopResult['validation'];
}

export type FlowExecution = ExecutionBase &
  (
    | { kind: 'blocked'; problems: CheckProblem[] }
    | { kind: 'ask'; question: PendingQuestion }
    | {
        kind: 'completed';
        outcome: Extract<SkillOutcome, { outcome: 'success' }>;
        frame?: CreatedFrame;
        text?: string;
        verify: VerifyProblem[];
        schedule: InternalFlowRequest[];
      }
    | {
        kind: 'failed';
        outcome: Extract<SkillOutcome, { outcome: 'failure' }>;
        frame?: CreatedFrame;
        text?: string;
      }
    | { kind: 'uncertain'; outcome: Extract<SkillOutcome, { outcome: 'uncertain' }> }
    | { kind: 'suspended'; outcome: Extract<SkillOutcome, { outcome: 'suspended' }> }
    | { kind: 'fallback'; target: FallbackTarget; outcome: SkillOutcome }
  );

export interface ExecuteFlowOptions {
  state: DialogueState;
  definition: FlowDefinition | undefined;
  tools: ToolSet;
  model: LanguageModelV3;
  persona: string;
  domain?: string;
  /** Recent conversation, ending with the user's latest message. */
  context: LanguageModelV3Prompt;
  history: readonly HistoryMessage[];
  scratchpad: readonly ScratchpadEntry[];
  preferences: Readonly<Record<string, unknown>>;
  /** Flows finished earlier in the thread, most recent last (read by the flow_stack tool). */
  previous: readonly FlowInstance[];
  batch: Omit<ToolBatchContext, 'tools'>;
  maxScratchpadEntries: number;
  nextTableId: () => string;
  /** Call-specific guidance for the skill (a retry hint, a plan item's context). */
  guidance?: string;
  /** Tools the skill must call successfully before it may succeed (seed 002 TAEF; plan items). */
  requiredTools?: readonly string[];
  /**
   * The skill loop's bounds for this run, over the defaults of the flow's complexity (the agent passes its
   * turn's resolved column: `RunFlowsOptions.execution`).
   */
  limits?: Partial<SkillLoopLimits>;
  /** Continues a suspended run from its checkpoint. */
  resume?: RunSkillLoopOptions['resume'];
  stream?: boolean;
  signal?: AbortSignal;
  /** Ends the skill run as the user's stop does, when the caller asks (the agent: its thread lease was lost). */
  stop?: StopSource;
}

export async function executeFlow(options: ExecuteFlowOptions): Promise<FlowExecution> {
  // The bound's old shorthand is refused rather than ignored (docs/decisions/0053-one-table-of-bounds.md).
  if (Object.hasOwn(options, 'maxIterations'))
    throw new ConfigurationError({
      message: 'executeFlow({ maxIterations }) was removed.',
      problems: ['maxIterations: set limits.maxIterations instead'],
    });
  let state = options.state;
  const flow0 = state.stack.at(-1);
  const check = checkFlow({
    flow: flow0,
    stack: state.stack,
    definition: options.definition,
    tools: options.tools,
  });
  const base: ExecutionBase = {
    state,
    scratchpad: [...options.scratchpad],
    events: [],
    filled: [],
    gated: check.gated,
  };
  const blocked = (problems: CheckProblem[]): FlowExecution => ({
    ...base,
    state: transitionDialogue(state, { type: 'set-flags', flags: { hasIssues: true } }),
    kind: 'blocked',
    problems,
  });
  if (check.problems.length > 0 || !flow0 || !options.definition) return blocked(check.problems);
  const definition = options.definition;
  const review = await reviewSlots({
    definition,
    flow: flow0,
    hasContext:
      options.history.length > 1 ||
      options.scratchpad.length > 0 ||
      Object.keys(options.preferences).length > 0,
    fill: {
      model: options.model,
      context: options.context,
      memory: { scratchpad: options.scratchpad, preferences: options.preferences },
      persona: options.persona,
      ...(options.stream ? { stream: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  });
  if (review.filled.length > 0) {
    const slots = Object.fromEntries(review.filled.map((name) => [name, review.flow.slots[name]]));
    state = transitionDialogue(state, { type: 'fill-slots', flowId: flow0.id, slots });
  }
  base.state = state;
  base.filled = review.filled;
  if (review.question) return { ...base, kind: 'ask', question: review.question };
  const flow = state.stack.at(-1) as FlowInstance;
  const slotProblems = checkSlots(definition, flow);
  if (slotProblems.length > 0) return blocked(slotProblems);
  const needsApproval = [...check.tools.values()].some((t) => t.requiresApproval);
  if (needsApproval && flow.confirmed !== stableHash(flow.slots))
    return {
      ...base,
      kind: 'ask',
      question: declareAmbiguity({ level: 'confirmation', flow, spec: definition }),
    };

  const workspace = {
    history: options.history,
    scratchpad: [...options.scratchpad],
    preferences: options.preferences,
    stack: state.stack,
    previous: options.previous,
    flowId: flow.id,
    flowName: flow.name,
    clock: options.batch.clock,
    maxScratchpadEntries: options.maxScratchpadEntries,
    written: [] as string[],
  };
  const tools = withComponentTools(check.tools);
  const system = composeSkillPrompt({
    persona: options.persona,
    ...(options.domain ? { domain: options.domain } : {}),
    spec: definition,
    flow,
    preferences: options.preferences,
    ...(options.guidance ? { guidance: options.guidance } : {}),
  });
  // The user's yes to the confirmation covers one call of each tool that needs approval (tool/…).
  const approvals = [...check.tools.values()].filter((t) => t.requiresApproval).map((t) => t.name);
  const loop = await runSkillLoop({
    model: options.model,
    prompt: [{ role: 'system', content: system } as LanguageModelV3Message, ...options.context],
    tools,
    batch:
      approvals.length > 0
        ? {
            ...options.batch,
            runScope: workspace,
            approvals: approveConfirmedCalls({
              toolNames: approvals,
              ...(options.batch.approvals ? { fallback: options.batch.approvals } : {}),
            }),
          }
        : { ...options.batch, runScope: workspace },
    flow: definition.name,
    parentId: flow.id,
    complexity: definition.complexity ?? 'simple',
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.requiredTools && options.requiredTools.length > 0
      ? { requiredTools: options.requiredTools }
      : {}),
    ...(options.resume ? { resume: options.resume } : {}),
    ...(definition.complexity === 'complex' && definition.successCriteria
      ? { reflection: { successCriteria: definition.successCriteria } }
      : {}),
    ...(options.stream ? { stream: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.stop ? { stop: options.stop } : {}),
  });
  return finishExecution({ options, state, flow, definition, base, workspace }, loop);
}

/** What `executeFlow` decided before the skill ran, for the part after it. */
interface SkillRunInput {
  options: ExecuteFlowOptions;
  state: DialogueState;
  flow: FlowInstance;
  definition: FlowDefinition;
  base: ExecutionBase;
  workspace: { scratchpad: ScratchpadEntry[]; written: string[] };
}

/** Result processing, completion and the post-hook once the skill has run. */
function finishExecution(input: SkillRunInput, loop: SkillLoopResult): FlowExecution {
  const { options, state, flow, definition, base, workspace } = input;
  const after: ExecutionBase = {
    ...base,
    scratchpad: workspace.scratchpad,
    events: loop.events,
    checkpoint: { messages: loop.messages, state: loop.state },
    ...(loop.validation ? { validation: loop.validation } : {}),
  };
  const { outcome } = loop;
  if (outcome.outcome === 'suspended') return { ...after, kind: 'suspended', outcome };
  const target = definition.hooks.fallback?.({ flow, outcome });
  if (target) return { ...after, kind: 'fallback', target, outcome };
  if (outcome.outcome === 'uncertain') return { ...after, kind: 'uncertain', outcome };
  const toolRows = lastToolRows(loop.events, definition.tools);
  const processed = processResult({
    spec: definition,
    outcome,
    nextTableId: options.nextTableId,
    ...(toolRows ? { toolRows } : {}),
  });
  if (outcome.outcome === 'failure') {
    const failed = transitionDialogue(transitionDialogue(state, { type: 'invalidate', flowId: flow.id }), {
      type: 'set-flags',
      flags: { hasIssues: true },
    });
    return {
      ...after,
      state: failed,
      kind: 'failed',
      outcome,
      ...(processed.frame ? { frame: processed.frame } : {}),
      ...(processed.text !== undefined ? { text: processed.text } : {}),
    };
  }
  return complete({
    options,
    state,
    flow,
    definition,
    outcome,
    processed,
    after,
    written: workspace.written.length > 0,
  });
}

function complete(input: {
  options: ExecuteFlowOptions;
  state: DialogueState;
  flow: FlowInstance;
  definition: FlowDefinition;
  outcome: Extract<SkillOutcome, { outcome: 'success' }>;
  processed: ReturnType<typeof processResult>;
  after: ExecutionBase;
  written: boolean;
}): FlowExecution {
  const { options, flow, definition, outcome, processed, after } = input;
  const before = input.state;
  let state = before;
  const effects = definition.hooks.afterComplete?.({ flow, data: outcome.data });
  if (effects?.slots) state = replaceSlots(state, flow.id, effects.slots);
  if (effects?.flags) state = transitionDialogue(state, { type: 'set-flags', flags: effects.flags });
  state = transitionDialogue(state, {
    type: 'complete',
    result: processed.frame?.frame ?? processed.scratchpadText ?? processed.text,
  });
  let scratchpad = after.scratchpad;
  const now = options.batch.clock.now();
  const write = (key: string, text: string) => {
    scratchpad = writeScratchpad(
      scratchpad,
      { key, text, source: flow.name, time: now },
      { maxEntries: options.maxScratchpadEntries },
    );
  };
  if (processed.scratchpadText !== undefined) write(`${flow.id}:result`, processed.scratchpadText);
  const summaries = summarizeCompletion({
    spec: definition,
    flow,
    data: outcome.data,
    skillEntries: outcome.scratchpadEntries,
  });
  for (const [index, text] of summaries.entries()) write(`${flow.id}:summary:${index + 1}`, text);
  const verify = verifyFlow({
    before,
    after: state,
    flowId: flow.id,
    spec: definition,
    ...(processed.frame ? { frame: processed.frame.frame } : {}),
    scratchpadWritten: input.written || processed.scratchpadText !== undefined,
  });
  return {
    ...after,
    state,
    scratchpad,
    kind: 'completed',
    outcome,
    verify,
    schedule: effects?.schedule ?? [],
    ...(processed.frame ? { frame: processed.frame } : {}),
    ...(processed.text !== undefined ? { text: processed.text } : {}),
  };
}

/** Applies a hook's slot values as given, so that a hook clearing a slot is visible to `verify()`. */
function replaceSlots(state: DialogueState, flowId: string, slots: Record<string, unknown>): DialogueState {
  return {
    ...state,
    stack: state.stack.map((f) => {
      if (f.id !== flowId) return f;
      const next = { ...f.slots, ...slots };
      for (const [k, v] of Object.entries(slots)) if (v === undefined || v === null) delete next[k];
      return { ...f, slots: next };
    }),
  };
}

/** The `rows` of the last successful call of one of the flow's own tools, if it returned any. */
function lastToolRows(events: readonly SkillLoopEvent[], tools: readonly string[]): unknown[] | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (
      event?.type !== 'tool-result' ||
      event.result.status !== 'success' ||
      !tools.includes(event.result.toolName)
    )
      continue;
    const output = event.result.output;
    const rows = output && typeof output === 'object' ? (output as { rows?: unknown }).rows : undefined;
    return Array.isArray(rows) ? rows : undefined;
  }
  return undefined;
}

/**
 * A flow's tools with the component tools, one set per flow tool set: the component tools read their
 * run's workspace from the batch (`runScope`), so the set is the same from run to run, and so is the
 * skill loop's cache of the tools it offers the model.
 */
const withComponents = new WeakMap<ToolSet, ToolSet>();

function withComponentTools(flowTools: ToolSet): ToolSet {
  let set = withComponents.get(flowTools);
  if (!set) {
    set = createToolSet([...flowTools.values(), ...sharedComponentTools]);
    withComponents.set(flowTools, set);
  }
  return set;
}
