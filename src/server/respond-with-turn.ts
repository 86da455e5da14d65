/**
 * Answers a request that runs a turn (a message, a resume) in the mode the client asked for:
 * - JSON (default): waits and answers 200 (201 for a new thread) with the `TurnResult`;
 * - `Prefer: respond-async`: answers 202 at once with where to stream the turn's events from;
 * - `Accept: text/event-stream`: streams the turn's events and ends with a `turn` event holding the
 *   `TurnResult` (or a `problem` event).
 */
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { TurnResult } from '../agent/index.js';
import { lastObservationId } from '../observe/index.js';
import { followTurn } from './internal/follow-turn.js';
import { startHeartbeat, writeObservationEvent } from './internal/sse-observations.js';
import { problemResponse, toProblem } from './problem-details.js';
import type { ServerContext, ServerEnv } from './server-types.js';

export interface TurnRequest {
  threadId: string;
  principal: string;
  /** The thread is new: 201 with a Location. */
  created: boolean;
  run: (signal: AbortSignal) => Promise<TurnResult>;
  /** The message says stop: while the thread's turn runs it stops that turn instead of being refused. */
  stop?: boolean;
}

export async function respondWithTurn(
  c: Context<ServerEnv>,
  context: ServerContext,
  request: TurnRequest,
): Promise<Response> {
  const { threadId, principal } = request;
  const location = `/v1/threads/${encodeURIComponent(threadId)}`;
  const prefer = c.req.header('prefer') ?? '';
  if (/\brespond-async\b/i.test(prefer)) {
    const afterId = await lastObservationId(context.agent.store, threadId);
    context.runner.run(threadId, principal, request.run, runOptions(request)).catch(() => undefined);
    c.header('Location', location);
    return c.json({ threadId, afterId, events: `${location}/events`, thread: location }, 202);
  }
  if ((c.req.header('accept') ?? '').includes('text/event-stream')) {
    const afterId = await lastObservationId(context.agent.store, threadId);
    return streamTurn(c, context, request, afterId);
  }
  try {
    const result = await context.runner.run(threadId, principal, request.run, runOptions(request));
    if (request.created) c.header('Location', location);
    return c.json(result, request.created ? 201 : 200);
  } catch (error) {
    return problemResponse(toProblem(error, context.onError));
  }
}

function streamTurn(c: Context<ServerEnv>, context: ServerContext, request: TurnRequest, afterId: number) {
  return streamSSE(c, async (stream) => {
    const reader = new AbortController();
    stream.onAbort(() => reader.abort());
    const stopHeartbeat = startHeartbeat(stream, context.heartbeatMs);
    try {
      const followed = await followTurn(context, {
        threadId: request.threadId,
        principal: request.principal,
        run: request.run,
        ...(request.stop ? { stop: true } : {}),
        afterId,
        write: (observation) => writeObservationEvent(stream, observation),
        signal: reader.signal,
      });
      if (followed.ok) await stream.writeSSE({ event: 'turn', data: JSON.stringify(followed.result) });
      else if (!('gone' in followed))
        await stream.writeSSE({
          event: 'problem',
          data: JSON.stringify(toProblem(followed.error, context.onError)),
        });
    } finally {
      stopHeartbeat();
    }
  });
}

function runOptions(request: TurnRequest): { stop?: boolean } {
  return request.stop ? { stop: true } : {};
}
