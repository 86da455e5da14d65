/**
 * One pass over a thread's stored observations: the last event id (where a stream should resume) and
 * the suspension still waiting for an answer — the last `suspended` that no later `resumed` answered.
 */
import type { StateStore } from '../spec/index.js';
import { replayObservations } from './replay-observations.js';

export interface OpenSuspension {
  suspensionId?: string;
  callId: string;
  toolName: string;
  reason: string;
  input?: unknown;
  observationId: number;
}

/** @example const { lastEventId, suspension } = await summarizeThreadEvents(store, threadId); */
export async function summarizeThreadEvents(
  store: Pick<StateStore, 'readObservations'>,
  threadId: string,
): Promise<{ lastEventId: number; suspension: OpenSuspension | undefined }> {
  let lastEventId = 0;
  let suspension: OpenSuspension | undefined;
  for await (const o of replayObservations(store, threadId)) {
    lastEventId = o.id;
    if (o.type === 'suspended') {
      const data = o.data as Record<string, unknown>;
      suspension = {
        callId: String(data.callId ?? ''),
        toolName: String(data.toolName ?? ''),
        reason: String(data.reason ?? ''),
        observationId: o.id,
      };
      if (typeof data.suspensionId === 'string') suspension.suspensionId = data.suspensionId;
      if (data.input !== undefined) suspension.input = data.input;
    } else if (o.type === 'resumed' && suspension) {
      const data = o.data as Record<string, unknown>;
      const answered =
        data.suspensionId === undefined && data.callId === undefined
          ? true
          : data.suspensionId === suspension.suspensionId || data.callId === suspension.callId;
      if (answered) suspension = undefined;
    }
  }
  return { lastEventId, suspension };
}
