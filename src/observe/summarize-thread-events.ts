/**
 * One pass over a thread's stored observations: the last event id (where a stream should resume) and
 * the questions still waiting for an answer. A `suspended` observation lists every question its turn
 * waits for (`data.suspensions`, or one question in `data` itself); a `resumed` one removes the
 * question it answered; a turn that ends in any other way leaves nothing waiting.
 */
import type { StateStore } from '../spec/index.js';
import { replayObservations } from './replay-observations.js';

export interface OpenSuspension {
  /** The id `agent.resume({ suspensionId })` answers. */
  suspensionId?: string;
  /** `approval`, `feedback`, `outcome_unknown`, `rollback` … */
  kind?: string;
  callId: string;
  toolName: string;
  /** The question in words. */
  prompt: string;
  /** The call's arguments (redacted), when known. */
  input?: unknown;
  /** The answer it takes (a feedback schema), when known. */
  feedback?: unknown;
  observationId: number;
}

/** @example const { lastEventId, suspensions } = await summarizeThreadEvents(store, threadId); */
export async function summarizeThreadEvents(
  store: Pick<StateStore, 'readObservations'>,
  threadId: string,
): Promise<{ lastEventId: number; suspensions: OpenSuspension[] }> {
  let lastEventId = 0;
  let open: OpenSuspension[] = [];
  for await (const o of replayObservations(store, threadId)) {
    lastEventId = o.id;
    const data = o.data as Record<string, unknown>;
    if (o.type === 'suspended') {
      const listed = Array.isArray(data.suspensions) ? data.suspensions : [data];
      open = listed.filter(isRecord).map((s) => toOpen(s, o.id));
    } else if (o.type === 'resumed') {
      open = open.filter(
        (s) =>
          !(
            (data.suspensionId !== undefined && data.suspensionId === s.suspensionId) ||
            (data.suspensionId === undefined && data.callId !== undefined && data.callId === s.callId)
          ),
      );
    } else if (o.type === 'final-response' && data.status !== 'suspended') {
      open = [];
    }
  }
  return { lastEventId, suspensions: open };
}

function toOpen(s: Record<string, unknown>, observationId: number): OpenSuspension {
  const id = s.suspensionId ?? s.id;
  const open: OpenSuspension = {
    callId: String(s.callId ?? ''),
    toolName: String(s.toolName ?? ''),
    prompt: String(s.prompt ?? s.reason ?? ''),
    observationId,
  };
  if (typeof id === 'string') open.suspensionId = id;
  if (typeof s.kind === 'string') open.kind = s.kind;
  if (s.input !== undefined) open.input = s.input;
  if (s.feedback !== undefined) open.feedback = s.feedback;
  return open;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
