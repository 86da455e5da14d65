/**
 * A thread's events as server-sent events: stored observations after `Last-Event-ID` (or `?after=`)
 * replayed from the store, then live, each exactly once; live progress unless `?progress=0`.
 */
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { streamObservations } from '../../observe/index.js';
import { readResumeId, startHeartbeat, writeObservationEvent } from '../internal/sse-observations.js';
import { problem, problemResponse } from '../problem-details.js';
import type { ServerContext, ServerEnv } from '../server-types.js';
import { findOwnedThread } from '../thread-access.js';

export function registerEventRoutes(app: Hono<ServerEnv>, context: ServerContext): void {
  app.get('/v1/threads/:threadId/events', async (c) => {
    const owned = await findOwnedThread(context, c.req.param('threadId'), c.get('principal'));
    if (!owned.ok) return owned.response;
    const { threadId } = owned;
    const afterId = readResumeId(c.req.header('last-event-id'), c.req.query('after'));
    if (afterId === undefined)
      return problemResponse(
        problem(400, 'invalid_last_event_id', 'Last-Event-ID (or after) must be an event id.'),
      );
    const progress = c.req.query('progress') !== '0';
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const controller = new AbortController();
      stream.onAbort(() => controller.abort());
      const onShutdown = () => controller.abort();
      context.shutdown.addEventListener('abort', onShutdown);
      const stopHeartbeat = startHeartbeat(stream, context.heartbeatMs);
      try {
        // A stream opened while a turn runs starts with what the turn is doing now.
        const current = progress ? context.runner.currentProgress(threadId) : undefined;
        if (current) await writeObservationEvent(stream, current);
        const events = streamObservations({
          store: context.agent.store,
          subscribe: context.subscribe,
          threadId,
          afterId,
          progress,
          signal: controller.signal,
          ...(context.pollIntervalMs !== undefined ? { pollIntervalMs: context.pollIntervalMs } : {}),
        });
        for await (const observation of events) await writeObservationEvent(stream, observation);
      } finally {
        stopHeartbeat();
        controller.abort();
      }
    });
  });
}
