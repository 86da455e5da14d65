/**
 * The skill loop's first step: the run's working record from its options, with its limits resolved and
 * its control state fresh or restored from a checkpoint. Options that cannot take effect are refused here.
 */
import { ConfigurationError } from '../errors/index.js';
import { bindLogger } from '../observe/index.js';
import {
  addTaintSource,
  parseSkillCalls,
  type TaintState,
  type ToolBatchContext,
  taintFromTranscript,
} from '../tool/index.js';
import { copyWith, randomIdGenerator } from '../util/index.js';
import { resumedCallIdSuffix } from './internal/resumed-call-ids.js';
import type { SkillRun, TextToolCall } from './internal/skill-run.js';
import type { RunSkillLoopOptions } from './run-skill-loop-options.js';
import { resolveSkillLoopLimits } from './skill-loop-limits.js';
import { createSkillLoopState } from './skill-loop-state.js';

/** Builds the run's working record; throws a `ConfigurationError` for an option that cannot take effect. */
export function createSkillRun(options: RunSkillLoopOptions): SkillRun {
  const clock = options.clock ?? options.batch.clock;
  // The bound's old shorthand is refused rather than ignored (docs/decisions/0053-one-table-of-bounds.md).
  if (Object.hasOwn(options, 'maxIterations'))
    throw new ConfigurationError({
      message: 'runSkillLoop({ maxIterations }) was removed.',
      problems: ['maxIterations: set limits.maxIterations instead'],
    });
  const textCalls = options.toolCalling === 'text';
  const limits = resolveSkillLoopLimits({ complexity: options.complexity ?? 'simple', call: options.limits });
  const state = options.resume
    ? structuredClone(options.resume.state)
    : createSkillLoopState({ now: clock.now(), maxOutputTokens: limits.maxOutputTokens });
  return {
    model: options.model,
    prompt: options.prompt,
    flow: options.flow,
    parentId: options.parentId,
    stream: options.stream === true,
    signal: options.signal,
    stop: options.stop,
    stopRequested: options.stopRequested,
    clock,
    limits,
    tools: options.tools,
    // The caller's taint state (an agent's: the turn's), else one per run; either way a resumed run adds
    // what its restored transcript holds, so a suspension does not wash the taint out (tool/tool-batch-context.ts).
    batch: copyWith(options.batch, {
      tools: options.tools,
      taint: runTaint(options),
      ...flowLogger(options),
    }),
    abort: undefined,
    stepBatch: undefined,
    watch: undefined,
    transcriptChecked: false,
    requiredTools: options.requiredTools ?? [],
    successCriteria: options.reflection?.successCriteria,
    cleanOnBacktrack: options.cleanContextOnBacktrack !== false,
    parseTextToolCalls: options.parseTextToolCalls ?? (textCalls ? readSkillCalls : undefined),
    toolCalling: textCalls ? 'text' : 'native',
    ids: options.ids ?? randomIdGenerator,
    onEvent: options.onEvent,
    state,
    messages: [...(options.resume?.messages ?? [])],
    events: [],
    callIdSuffix: resumedCallIdSuffix(options.resume),
  };
}

/** The calls of the text skill-call protocol (ids are given by the loop, unique per run). */
function readSkillCalls(text: string): readonly TextToolCall[] {
  return parseSkillCalls(text).calls;
}

function runTaint(options: RunSkillLoopOptions): TaintState {
  const restored = taintFromTranscript(options.resume?.messages ?? [], options.tools, options.batch.turnId);
  const taint = options.batch.taint;
  if (!taint) return restored;
  for (const origin of restored.origins ?? []) addTaintSource(taint, origin);
  return taint;
}

/** The batch's logger with the run's flow on every record (a retry, a timed-out tool), when both are there. */
function flowLogger(options: RunSkillLoopOptions): { logger?: ToolBatchContext['logger'] } {
  const { logger } = options.batch;
  return logger && options.flow !== undefined ? { logger: bindLogger(logger, { flow: options.flow }) } : {};
}
