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
  emitToolCall,
  emitToolResult,
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
  // Object.assign, not a spread with new keys after it: on Node 20 the latter gives every
  // object a hidden class of its own, and every stage's reads of the batch go megamorphic.
  const batch = Object.assign({}, run.batch, { tools, signal });
  run.stepBatch = batch;
  return batch;
}

/** The empty set of a step where no call was repeated or not offered (never changed: typed read-only). */
const none: ReadonlySet<string> = new Set();

/** Runs the step's calls (except `finish_skill`) and returns one result per call. */
export function validatePhase(run: SkillRun, calls: readonly StepCall[]): Promise<ValidateResult> {
  try {
    return validate(run, calls);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Not `async`: while the tools run, a reaction on the batch waits, not a frame of this function. */
function validate(run: SkillRun, calls: readonly StepCall[]): Promise<ValidateResult> {
  // Made when a call needs them: a step whose calls all run keeps none while its tools work.
  let answered: Map<string, ToolCallResult> | undefined;
  let repeated: Set<string> | undefined;
  let notOffered: Set<string> | undefined;
  const queued: ToolCallRequest[] = [];
  const withdrawn = run.state.breaker.withdrawn;
  for (const call of calls) {
    emitToolCall(run, call);
    if (!run.tools.has(call.toolName)) notOffered = withId(notOffered, call.callId);
    if (call.problem !== undefined) {
      answered = withAnswer(
        answered,
        call.callId,
        loopError(call, 'validation_error', `The call could not be read: ${call.problem}`),
      );
      continue;
    }
    if (withdrawn.length > 0 && withdrawn.includes(call.toolName)) {
      notOffered = withId(notOffered, call.callId);
      const failures = run.state.breaker.toolFailureStreaks[call.toolName] ?? 0;
      answered = withAnswer(
        answered,
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
      repeated = withId(repeated, call.callId);
      emit(run, {
        type: 'repeated-call',
        callId: call.callId,
        toolName: call.toolName,
        count: counted.count,
      });
      answered = withAnswer(
        answered,
        call.callId,
        loopError(
          call,
          'validation_error',
          `'${call.toolName}' was already called ${counted.count - 1} times with these same arguments; calling it again will not change the result, so it was not run. Try a different approach, or finish with what you have.`,
        ),
      );
      continue;
    }
    queued.push({
      callId: call.callId,
      toolName: call.toolName,
      input: call.input,
      ...(call.parallelGroup ? { parallelGroup: call.parallelGroup } : {}),
    });
  }
  // Kept while the tools run: a copy of exactly its length (a pushed-to array holds room for 17).
  const toRun = queued.slice();
  const finish = (stopped: StopReason | undefined): ValidateResult => {
    const results = calls.map((call) => answered?.get(call.callId) as ToolCallResult);
    for (const result of results) emitToolResult(run, result);
    const outcome: ValidateResult = { results, repeated: repeated ?? none, notOffered: notOffered ?? none };
    if (stopped) outcome.stopped = stopped;
    return outcome;
  };
  if (toRun.length === 0) return Promise.resolve(finish(undefined));
  const tools =
    withdrawn.length === 0
      ? run.tools
      : new Map([...run.tools].filter(([name]) => !withdrawn.includes(name)));
  return awaitWithin({
    ...deadlines(run),
    controller: sharedController(run),
    work: (signal) => {
      // The work's signal follows the user's already: the batch's is linked in only when it is another one.
      if (run.batch.signal === run.signal || run.batch.signal === undefined)
        return executeToolBatch(toRun, stepBatch(run, tools, signal));
      const linked = linkSignals([signal, run.batch.signal]);
      return executeToolBatch(toRun, stepBatch(run, tools, linked.signal)).finally(linked.release);
    },
  }).then((within) => {
    let stopped: StopReason | undefined;
    if (within.status === 'done') {
      touch(run);
      for (const result of within.value) answered = withAnswer(answered, result.callId, result);
    } else if (within.status === 'stopped') stopped = within.reason;
    for (const call of toRun) {
      if (answered?.has(call.callId)) continue;
      answered = withAnswer(answered, call.callId, unansweredError(call, within, run.batch.redact.text));
    }
    return finish(stopped);
  });
}

/** `answers` with `id`'s result set; a new map when there was none. */
function withAnswer(
  answers: Map<string, ToolCallResult> | undefined,
  id: string,
  result: ToolCallResult,
): Map<string, ToolCallResult> {
  const map = answers ?? new Map<string, ToolCallResult>();
  map.set(id, result);
  return map;
}

/** `set` with `id` added; a new set when there was none. */
function withId(set: Set<string> | undefined, id: string): Set<string> {
  const ids = set ?? new Set<string>();
  ids.add(id);
  return ids;
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
