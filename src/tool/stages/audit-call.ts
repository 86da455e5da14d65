import { messageOfThrown } from '../../errors/index.js';
import type { AuditRecord, StateStore, ToolCallResult } from '../../spec/index.js';
import { assessmentOf } from '../internal/assess-call.js';
import type { ToolCallState } from '../tool-call-state.js';
import { toolDefaults } from '../tool-defaults.js';
import type { ToolDefinition } from '../tool-definition.js';
import { errorResult, toContextText } from '../tool-results.js';
import type { StageAnswer } from '../tool-stage.js';

/**
 * The audit log (seed 003): every call of a `controlled`, `restricted` or `privileged` tool gets a row
 * written before the call (tool, level, risk, redacted input summary, status `started`) and completed
 * after it (see `completeAudit`). The row is written before the capability gate, so that a call the gate,
 * a person or a rate limit stops is on record too. A row that cannot be written stops the call: what
 * cannot be audited does not run.
 */
export function startAudit(state: ToolCallState): StageAnswer<ToolCallResult | undefined> {
  const { tool, batch } = state;
  const store = batch.store;
  if (!tool || !store || tool.capability === 'safe') return undefined;
  return writeAuditStart(state, tool, store);
}

async function writeAuditStart(
  state: ToolCallState,
  tool: ToolDefinition,
  store: StateStore,
): Promise<ToolCallResult | undefined> {
  const { batch } = state;
  const startedAt = batch.clock.now();
  try {
    const id = await store.appendAudit({
      threadId: batch.threadId,
      callId: state.request.callId,
      toolName: tool.name,
      capability: tool.capability,
      ...(batch.principal !== undefined ? { principal: batch.principal } : {}),
      inputSummary: summarize(toContextText(batch.redact.value(state.input))),
      risk: assessmentOf(state).risk,
      status: 'started',
      createdAt: startedAt,
    });
    state.audit = { id, startedAt };
    return undefined;
  } catch (error) {
    const detail = batch.redact.text(messageOfThrown(error));
    return errorResult(
      state,
      'server_error',
      `The audit log cannot be written (${detail}), so the call was not run.`,
      false,
    );
  }
}

/**
 * Completes the call's audit row: status (a call that never ran because something stopped it is
 * `denied`, one waiting for a person `suspended`, one answered without running `replayed`), redacted output summary with the simulation, duration.
 */
export function completeAudit(state: ToolCallState, result: ToolCallResult): StageAnswer<ToolCallResult> {
  const { audit, batch } = state;
  if (!audit || !batch.store) return result;
  return writeAuditEnd(state, result, audit, batch.store);
}

async function writeAuditEnd(
  state: ToolCallState,
  result: ToolCallResult,
  audit: NonNullable<ToolCallState['audit']>,
  store: StateStore,
): Promise<ToolCallResult> {
  const { batch } = state;
  try {
    await store.completeAudit({
      id: audit.id,
      status: auditStatus(state, result),
      outputSummary:
        result.status !== 'suspended' && result.simulation
          ? `${summarize(result.contextText)}\n[simulation] ${summarize(result.simulation)}`
          : summarize(result.contextText),
      durationMs: Math.max(0, batch.clock.now() - audit.startedAt),
    });
  } catch {
    // The call has happened; its result must reach the model even if the row stays `started`.
  }
  return result;
}

function auditStatus(state: ToolCallState, result: ToolCallResult): AuditRecord['status'] {
  // A success the tool did not produce here (journal, approval, cache, a person) is no second execution.
  if (result.status === 'success') return state.executed ? 'succeeded' : 'replayed';
  if (result.status === 'suspended') return 'suspended';
  return state.toolContent ? 'failed' : 'denied';
}

function summarize(text: string): string {
  const max = toolDefaults.auditSummaryChars;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
