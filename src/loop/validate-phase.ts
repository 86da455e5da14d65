/**
 * VALIDATE (seed 004): runs the step's tool calls through the safety pipeline (`executeToolBatch` from
 * `src/tool`) and returns one result per call, in call order. Before the pipeline, the loop answers two
 * kinds of call itself without running them: a call to a withdrawn tool, and a call repeated with the
 * same arguments until it counts as a loop. The batch is bounded by the run's idle and wall limits and
 * the user's stop; calls left without a result when a limit wins get an error result, so none is
 * orphaned.
 */
import type { ToolCallRequest, ToolCallResult } from '../spec/index.js';
import { executeToolBatch, type ToolBatchContext } from '../tool/index.js';
import { copyWith } from '../util/index.js';
import type { StopReason, WithinOutcome } from './await-within.js';
import { linkSignals } from './internal/any-signal.js';
import {
  emit,
  type SkillRun,
  type StepCall,
  sharedController,
  touch,
  watchOf,
} from './internal/skill-run.js';
import { type ScreenedCalls, screenStepCalls } from './screen-step-calls.js';

export interface ValidateResult {
  /** One per call, in call order. */
  results: ToolCallResult[];
  /** Ids of the calls answered as loops without running. */
  repeated: readonly string[];
  /** Ids of the calls to tools that were not offered at call time (unknown or withdrawn). */
  notOffered: readonly string[];
  /** Set when a limit or the user stopped the batch before it finished. */
  stopped?: StopReason;
}

/**
 * The batch context of a step: the run's, with the tools offered now and the step's signal. Steps with
 * the same tools and signal (no tool withdrawn, the run's one controller) share one object.
 */
function stepBatch(run: SkillRun, tools: ToolBatchContext['tools'], signal: AbortSignal): ToolBatchContext {
  const last = run.stepBatch;
  if (last !== undefined && last.tools === tools && last.signal === signal) return last;
  const batch = copyWith(run.batch, { tools, signal });
  run.stepBatch = batch;
  return batch;
}

/** Runs the step's calls (except `finish_skill`) and returns one result per call. */
export async function validatePhase(run: SkillRun, calls: readonly StepCall[]): Promise<ValidateResult> {
  const screened = screenStepCalls(run, calls);
  const stopped = screened.queued.length > 0 ? await runQueuedCalls(run, screened) : undefined;
  const results = calls.map((call) => screened.answered.get(call.callId) as ToolCallResult);
  for (const result of results) emit(run, { type: 'tool-result', result });
  const outcome: ValidateResult = { results, repeated: screened.repeated, notOffered: screened.notOffered };
  if (stopped) outcome.stopped = stopped;
  return outcome;
}

/**
 * Runs the queued calls through the tool pipeline within the run's limits and stop, with the withdrawn
 * tools left out, and answers each queued call: with its result, or with an error when a limit won.
 */
async function runQueuedCalls(run: SkillRun, screened: ScreenedCalls): Promise<StopReason | undefined> {
  const { answered, queued } = screened;
  const withdrawn = run.state.breaker.withdrawn;
  const tools =
    withdrawn.length === 0
      ? run.tools
      : new Map([...run.tools].filter(([name]) => !withdrawn.includes(name)));
  const within = await watchOf(run).wait(sharedController(run), (signal) => {
    // The work's signal follows the user's already: the batch's is linked in only when it is another one.
    if (run.batch.signal === run.signal || run.batch.signal === undefined)
      return executeToolBatch(queued, stepBatch(run, tools, signal));
    const linked = linkSignals([signal, run.batch.signal]);
    return executeToolBatch(queued, stepBatch(run, tools, linked.signal)).finally(linked.release);
  });
  let stopped: StopReason | undefined;
  if (within.status === 'done') {
    touch(run);
    for (const result of within.value) answered.set(result.callId, result);
  } else if (within.status === 'stopped') stopped = within.reason;
  for (const call of queued) {
    if (answered.has(call.callId)) continue;
    answered.set(call.callId, unansweredError(call, within, run.batch.redact.text));
  }
  return stopped;
}

function unansweredError(
  call: ToolCallRequest,
  within: WithinOutcome<ToolCallResult[]>,
  redact: (text: string) => string,
): ToolCallResult {
  const reasons = {
    idle: 'the idle time limit passed',
    'wall-time': 'the time limit of the run passed',
    'user-stop': 'the user stopped the run',
  };
  const message =
    within.status === 'stopped' && !within.started
      ? `Not run: ${reasons[within.reason]} before it could start.`
      : `No result: ${
          within.status === 'stopped'
            ? reasons[within.reason]
            : within.status === 'failed'
              ? `the tool pipeline failed (${redact(String(within.error))})`
              : 'the tool pipeline returned no result for it'
        } while this call was running; whether it took effect is unknown.`;
  return {
    status: 'error',
    callId: call.callId,
    toolName: call.toolName,
    error: { category: 'timeout', message, retryable: false },
    contextText: `Error (timeout) from tool '${call.toolName}': ${message}`,
  };
}
