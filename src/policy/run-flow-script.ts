/**
 * PEX phase 3 for a SCRIPT flow (seed 003): the flow's code policy runs where a skill's model loop would,
 * and ends with the same kind of result, so result processing, completion and verification do not tell
 * the two apart. No model is called: the script's tool calls go through the tool pipeline with the run's
 * batch (journal, approvals, capability, rate limits, redaction) but without the anticipatory simulation,
 * which is advice for a model. Their calls and results are recorded as a skill's are.
 * docs/decisions/0069-script-flows-and-strategies.md.
 */
import { describeThrown } from '../errors/index.js';
import type { FlowScript } from '../flow/index.js';
import { createSkillLoopState, type SkillLoopEvent, type SkillLoopResult } from '../loop/index.js';
import type { FlowInstance, SkillOutcome, ToolCallResult } from '../spec/index.js';
import { executeToolBatch, type ToolBatchContext } from '../tool/index.js';

export interface RunFlowScriptOptions {
  script: FlowScript;
  flow: FlowInstance;
  /** The batch the script's calls run with: the flow's own tools, its approvals and journal. */
  batch: ToolBatchContext;
  signal?: AbortSignal;
  stopRequested?: () => boolean;
  onEvent?: (event: SkillLoopEvent) => void;
  /** Tools the script must have called successfully for its result to count (seed 002 TAEF). */
  requiredTools?: readonly string[];
}

/** Runs the script to one outcome; like the skill loop, it never throws for what the script does. */
export async function runFlowScript(options: RunFlowScriptOptions): Promise<SkillLoopResult> {
  const { flow, batch } = options;
  const state = createSkillLoopState({ now: batch.clock.now(), maxOutputTokens: 0 });
  const events: SkillLoopEvent[] = [];
  const emit = (event: SkillLoopEvent) => {
    const linked = { ...event, parentId: flow.id };
    events.push(linked);
    options.onEvent?.(linked);
  };
  const scriptBatch: ToolBatchContext = { ...batch };
  delete scriptBatch.simulate;
  if (options.signal) scriptBatch.signal = options.signal;
  let calls = 0;
  const callTool = async (name: string, input: Record<string, unknown>): Promise<ToolCallResult> => {
    // Call ids are numbered per flow run, so a replayed turn finds the same calls in its journal.
    const request = { callId: `${flow.id}:script:${++calls}`, toolName: name, input: JSON.stringify(input) };
    emit({ type: 'tool-call', ...request });
    const [result] = (await executeToolBatch([request], scriptBatch)) as [ToolCallResult];
    emit({ type: 'tool-result', result });
    if (result.status === 'success') {
      state.completed.push({ callId: result.callId, toolName: name, output: result.output });
      if (!state.succeededTools.includes(name)) state.succeededTools.push(name);
    } else if (result.status === 'error')
      state.failures.push({ toolName: name, category: result.error.category, message: result.error.message });
    return result;
  };
  let outcome: SkillOutcome;
  try {
    const data = await options.script(
      { ...flow.slots },
      {
        callTool,
        flow: { id: flow.id, name: flow.name },
        signal: options.signal,
        stopRequested: () => options.stopRequested?.() === true || options.signal?.aborted === true,
      },
    );
    outcome = { outcome: 'success', data: data ?? {}, scratchpadEntries: [] };
  } catch (error) {
    outcome = {
      outcome: 'failure',
      errorCategory: 'server_error',
      message: batch.redact.text(describeThrown(error)),
      partialData: { completed: state.completed.map((c) => ({ toolName: c.toolName, output: c.output })) },
    };
  }
  const result: SkillLoopResult = {
    outcome,
    messages: [],
    events,
    iterations: 0,
    inputTokens: 0,
    outputTokens: 0,
    state,
  };
  const required = options.requiredTools ?? [];
  if (required.length === 0 || outcome.outcome !== 'success') return result;
  // Code is not prompted again as a model is: a success without a required tool is a failure at once.
  const missing = required.filter((name) => !state.succeededTools.includes(name));
  result.validation = { requiredTools: [...required], missing, passed: missing.length === 0 };
  if (missing.length > 0)
    result.outcome = {
      outcome: 'failure',
      errorCategory: 'validation_error',
      message: `The script ended without calling its required tools: ${missing.join(', ')}.`,
      partialData: outcome.data,
    };
  return result;
}
