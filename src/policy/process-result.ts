/**
 * PEX step 3, result processing by intent (seed 000): domain intents (read, prepare, transform,
 * schedule …) get a display frame; Converse writes its answer to the scratchpad (the reply is read
 * from it); Internal writes its findings to the scratchpad and never shows a frame or text; Plan writes
 * its summary to the scratchpad. A failure keeps its partial data in a frame with a warning. The reply
 * is the skill's message, else the result's own text; structured data without either goes to a frame
 * with a short sentence, never into the reply as JSON (ADR 0059).
 */
import { coreIntents } from '../flow/index.js';
import { type CreatedFrame, createDisplayFrame, describeReply, describeResult } from '../respond/index.js';
import type { FlowSpec, SkillOutcome } from '../spec/index.js';

export interface ProcessedResult {
  frame?: CreatedFrame;
  /** The reply text; absent for Internal flows. */
  text?: string;
  /** The result written to the scratchpad (Converse, Internal, Plan). */
  scratchpadText?: string;
}

export function isDomainIntent(intent: string): boolean {
  return !coreIntents.includes(intent);
}

export function processResult(options: {
  spec: FlowSpec;
  outcome: Extract<SkillOutcome, { outcome: 'success' | 'failure' }>;
  nextTableId: () => string;
  /**
   * The rows of the last successful call of a flow tool, in full (the model saw only a capped text):
   * a frame takes them when the skill's data has no rows of its own.
   */
  toolRows?: unknown[];
}): ProcessedResult {
  const { spec } = options;
  const outcome = withToolRows(options.outcome, options.toolRows);
  if (outcome.outcome === 'failure') {
    const text = `I could not finish "${spec.description.replace(/\.$/, '')}": ${outcome.message}`;
    const partial = outcome.partialData;
    if (
      !isDomainIntent(spec.intent) ||
      partial === null ||
      partial === undefined ||
      typeof partial !== 'object'
    )
      return spec.intent === 'internal' ? {} : { text };
    const frame = createDisplayFrame({
      spec,
      data: partial,
      nextTableId: options.nextTableId,
      warning: `These results are partial: ${outcome.message}`,
    });
    return frame ? { frame, text } : { text };
  }
  const reply = outcome.message ?? describeReply(outcome.data);
  const notes = reply ?? describeResult(outcome.data);
  if (spec.intent === 'internal') return { scratchpadText: `${spec.name}: ${notes}` };
  const isCore = spec.intent === 'converse' || spec.intent === 'plan';
  // A domain result always has its frame; a conversational one only when its data cannot be said.
  const frame =
    !isCore || reply === undefined
      ? createDisplayFrame({ spec, data: outcome.data, nextTableId: options.nextTableId })
      : undefined;
  const text = reply ?? replyPointingAtFrame(frame);
  const processed: ProcessedResult = frame ? { frame, text } : { text };
  return isCore ? { ...processed, scratchpadText: notes } : processed;
}

/** What the reply says of a result that has no words of its own: it points at the frame. */
function replyPointingAtFrame(frame: CreatedFrame | undefined): string {
  if (!frame) return 'Done.';
  const { displayType } = frame.frame;
  return displayType === 'table' || displayType === 'chart' ? 'Here are the results.' : 'Here is the result.';
}

function withToolRows<T extends Extract<SkillOutcome, { outcome: 'success' | 'failure' }>>(
  outcome: T,
  rows: unknown[] | undefined,
): T {
  if (!rows) return outcome;
  const key = outcome.outcome === 'success' ? 'data' : 'partialData';
  const value = outcome.outcome === 'success' ? outcome.data : outcome.partialData;
  if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value)))
    return outcome;
  const record = (value ?? {}) as Record<string, unknown>;
  if (Array.isArray(record.rows)) return outcome;
  return { ...outcome, [key]: { ...record, rows } };
}
