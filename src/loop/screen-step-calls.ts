/**
 * The first half of VALIDATE (seed 004): the loop answers some calls itself, without running them — a
 * call written in text that could not be read, a call to a withdrawn tool, and a call repeated with the
 * same arguments until it counts as a loop. The rest are queued for the tool pipeline.
 */
import type { ToolCallRequest, ToolCallResult } from '../spec/index.js';
import { callSignature, recordCall } from './detect-repeated-call.js';
import { emit, type SkillRun, type StepCall } from './internal/skill-run.js';

/** A step's calls after screening: the loop's own answers, and the calls left to run. */
export interface ScreenedCalls {
  /** Results by call id: the loop's answers now, the pipeline's once the queued calls ran. */
  answered: Map<string, ToolCallResult>;
  /** Ids of the calls answered as loops without running. */
  repeated: string[];
  /** Ids of the calls to tools that were not offered at call time (unknown or withdrawn). */
  notOffered: string[];
  /** Calls for the tool pipeline. */
  queued: ToolCallRequest[];
}

/** Records each call, answers the ones the loop does not run, and queues the others. */
export function screenStepCalls(run: SkillRun, calls: readonly StepCall[]): ScreenedCalls {
  const screened: ScreenedCalls = {
    answered: new Map(),
    repeated: [],
    notOffered: [],
    queued: [],
  };
  for (const call of calls) {
    emit(run, { type: 'tool-call', callId: call.callId, toolName: call.toolName, input: call.input });
    if (!run.tools.has(call.toolName)) screened.notOffered.push(call.callId);
    const answer = answerWithoutRunning(run, call, screened);
    if (answer) {
      screened.answered.set(call.callId, answer);
      continue;
    }
    screened.queued.push({
      callId: call.callId,
      toolName: call.toolName,
      input: call.input,
      ...(call.parallelGroup ? { parallelGroup: call.parallelGroup } : {}),
    });
  }
  return screened;
}

/** The loop's own answer to a call it does not run; `undefined` for a call to run. */
function answerWithoutRunning(
  run: SkillRun,
  call: StepCall,
  screened: ScreenedCalls,
): ToolCallResult | undefined {
  if (call.problem !== undefined)
    return loopError(call, 'validation_error', `The call could not be read: ${call.problem}`);
  if (run.state.breaker.withdrawn.includes(call.toolName)) {
    screened.notOffered.push(call.callId);
    const failures = run.state.breaker.toolFailureStreaks[call.toolName] ?? 0;
    return loopError(
      call,
      'not_found',
      `'${call.toolName}' was withdrawn after failing ${failures} times in a row. Use another tool, or finish with what you have.`,
    );
  }
  const counted = recordCall(
    run.state.callCounts,
    callSignature(call.toolName, call.input, call.parsed),
    run.limits.repeatedCallLimit,
  );
  run.state.callCounts = counted.counts;
  if (!counted.repeated) return undefined;
  screened.repeated.push(call.callId);
  emit(run, {
    type: 'repeated-call',
    callId: call.callId,
    toolName: call.toolName,
    count: counted.count,
  });
  return loopError(
    call,
    'validation_error',
    `'${call.toolName}' was already called ${counted.count - 1} times with these same arguments; calling it again will not change the result, so it was not run. Try a different approach, or finish with what you have.`,
  );
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
