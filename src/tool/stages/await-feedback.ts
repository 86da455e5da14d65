import type { ToolCallResult } from '../../spec/index.js';
import { argsHashOf, idempotencyKeyOf, type ToolCallState } from '../tool-call-state.js';

/**
 * A blocking tool (seed 002 HITL) never runs: its call waits for a person, whose answer becomes its
 * result when the run resumes. A blocking tool the model calls again in a run that was already answered
 * gets that answer back instead of asking again (DESIGN.md invariant 6).
 */
export function awaitFeedback(state: ToolCallState): ToolCallResult | undefined {
  const tool = state.tool;
  const blocking = tool?.blocking;
  if (!tool || !blocking) return undefined;
  const earlier = state.batch.answered?.forTool(state.request.toolName);
  if (earlier) return { ...earlier, callId: state.request.callId };
  const reason = state.batch.redact.text(renderPrompt(blocking.prompt ?? tool.description, state.input));
  return {
    status: 'suspended',
    kind: 'feedback',
    callId: state.request.callId,
    toolName: state.request.toolName,
    reason,
    argsHash: argsHashOf(state),
    idempotencyKey: idempotencyKeyOf(state),
    contextText: `The call to '${state.request.toolName}' waits for the user's answer: ${reason}`,
    feedback: blocking.feedback,
  };
}

/** Fills `{{field}}` placeholders from the call's arguments. */
function renderPrompt(template: string, input: unknown): string {
  const values = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  return template.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}
