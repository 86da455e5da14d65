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
import { awaitWithin, type StopReason, type WithinOutcome } from './await-within.js';
import { callSignature, recordCall } from './detect-repeated-call.js';
import { linkSignals } from './internal/any-signal.js';
import {
  deadlines,
  emit,
  type SkillRun,
  type StepCall,
  sharedController,
  touch,
} from './internal/skill-run.js';

export interface ValidateResult {
  /** One per call, in call order. */
  results: ToolCallResult[];
  /** Calls answered as loops without running. */
  repeated: ReadonlySet<string>;
  /** Calls to tools that were not offered at call time (unknown or withdrawn). */
  notOffered: ReadonlySet<string>;
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
  const batch = { ...run.batch, tools, signal };
  run.stepBatch = batch;
  return batch;
}

/** Runs the step's calls (except `finish_skill`) and returns one result per call. */
export async function validatePhase(run: SkillRun, calls: readonly StepCall[]): Promise<ValidateResult> {
  const answered = new Map<string, ToolCallResult>();
  const repeated = new Set<string>();
  const notOffered = new Set<string>();
  const toRun: ToolCallRequest[] = [];
  const withdrawn = run.state.breaker.withdrawn;
  for (const call of calls) {
    emit(run, { type: 'tool-call', callId: call.callId, toolName: call.toolName, input: call.input });
    if (!run.tools.has(call.toolName)) notOffered.add(call.callId);
    if (call.problem !== undefined) {
      answered.set(
        call.callId,
        loopError(call, 'validation_error', `The call could not be read: ${call.problem}`),
      );
      continue;
    }
    if (withdrawn.length > 0 && withdrawn.includes(call.toolName)) {
      notOffered.add(call.callId);
      const failures = run.state.breaker.toolFailureStreaks[call.toolName] ?? 0;
      answered.set(
        call.callId,
        loopError(
          call,
          'not_found',
          `'${call.toolName}' was withdrawn after failing ${failures} times in a row. Use another tool, or finish with what you have.`,
        ),
      );
      continue;
    }
    const counted = recordCall(
      run.state.callCounts,
      callSignature(call.toolName, call.input, call.parsed),
      run.limits.repeatedCallLimit,
    );
    run.state.callCounts = counted.counts;
    if (counted.repeated) {
      repeated.add(call.callId);
      emit(run, {
        type: 'repeated-call',
        callId: call.callId,
        toolName: call.toolName,
        count: counted.count,
      });
      answered.set(
        call.callId,
        loopError(
          call,
          'validation_error',
          `'${call.toolName}' was already called ${counted.count - 1} times with these same arguments; calling it again will not change the result, so it was not run. Try a different approach, or finish with what you have.`,
        ),
      );
      continue;
    }
    toRun.push({
      callId: call.callId,
      toolName: call.toolName,
      input: call.input,
      ...(call.parallelGroup ? { parallelGroup: call.parallelGroup } : {}),
    });
  }
  const finish = (stopped: StopReason | undefined): ValidateResult => {
    const results = calls.map((call) => answered.get(call.callId) as ToolCallResult);
    for (const result of results) emit(run, { type: 'tool-result', result });
    const outcome: ValidateResult = { results, repeated, notOffered };
    if (stopped) outcome.stopped = stopped;
    return outcome;
  };
  if (toRun.length === 0) return finish(undefined);
  const tools =
    withdrawn.length === 0
      ? run.tools
      : new Map([...run.tools].filter(([name]) => !withdrawn.includes(name)));
  const within = await awaitWithin({
    ...deadlines(run),
    controller: sharedController(run),
    work: (signal) => {
      // The work's signal follows the run's already: the batch's is linked in only when it is another one.
      if (run.batch.signal === run.signal || run.batch.signal === undefined)
        return executeToolBatch(toRun, stepBatch(run, tools, signal));
      const linked = linkSignals([signal, run.batch.signal]);
      return executeToolBatch(toRun, stepBatch(run, tools, linked.signal)).finally(linked.release);
    },
  });
  let stopped: StopReason | undefined;
  if (within.status === 'done') {
    touch(run);
    for (const result of within.value) answered.set(result.callId, result);
  } else if (within.status === 'stopped') stopped = within.reason;
  for (const call of toRun) {
    if (!answered.has(call.callId))
      answered.set(call.callId, unansweredError(call, within, run.batch.redact.text));
  }
  return finish(stopped);
}

function loopError(
  call: ToolCallRequest,
  category: 'not_found' | 'validation_error',
  message: string,
): ToolCallResult {
  return {
    status: 'error',
    callId: call.callId,
    toolName: call.toolName,
    error: { category, message, retryable: false },
    contextText: `Error (${category}) from tool '${call.toolName}': ${message}`,
  };
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
