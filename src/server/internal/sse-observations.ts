/**
 * Writes observations as server-sent events: a stored observation as `event: observation` with its
 * store id as the SSE id (so a browser's or client's `Last-Event-ID` resumes after it), live progress
 * as `event: progress` without an id, and a comment line when the stream is idle so that proxies keep
 * it open.
 */
import type { SSEStreamingApi } from 'hono/streaming';
import type { Observation } from '../../spec/index.js';

export async function writeObservationEvent(
  stream: SSEStreamingApi,
  observation: Observation,
): Promise<void> {
  if (observation.id > 0)
    await stream.writeSSE({
      id: String(observation.id),
      event: 'observation',
      data: JSON.stringify(observation),
    });
  else await stream.writeSSE({ event: 'progress', data: JSON.stringify(observation) });
}

/** Writes a comment every `intervalMs` until the returned function is called. */
export function startHeartbeat(stream: SSEStreamingApi, intervalMs: number): () => void {
  const timer = setInterval(() => {
    void stream.write(': keep-alive\n\n').catch(() => undefined);
  }, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** The id to resume after: the `Last-Event-ID` header, else the `after` query parameter, else 0. */
export function readResumeId(lastEventId: string | undefined, after: string | undefined): number | undefined {
  for (const value of [lastEventId, after]) {
    if (value === undefined || value.trim() === '') continue;
    const id = Number(value);
    return Number.isSafeInteger(id) && id >= 0 ? id : undefined;
  }
  return 0;
}
