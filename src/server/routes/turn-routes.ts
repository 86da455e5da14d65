/**
 * Work on a thread: send a message, answer a suspension, roll back, cancel the running turn. Resume
 * and rollback need the durability layer; an agent without them answers 501.
 */
import type { Hono } from 'hono';
import { resumeBody, rollbackBody, sendTurnBody } from '../api-schemas.js';
import { idempotencyKeyHeader, readIdempotencyKey, requestIdOfKey } from '../idempotency-key.js';
import { readJsonBody } from '../internal/read-json-body.js';
import { problem, problemResponse, toProblem } from '../problem-details.js';
import { respondWithTurn } from '../respond-with-turn.js';
import type { ServerContext, ServerEnv } from '../server-types.js';
import { findOwnedThread, resolveThread, threadNotFound } from '../thread-access.js';

export function registerTurnRoutes(app: Hono<ServerEnv>, context: ServerContext): void {
  app.post('/v1/threads/:threadId/messages', async (c) => {
    const named = c.req.param('threadId');
    const principal = c.get('principal');
    const resolved = await resolveThread(context, named, principal);
    if (!resolved.ok) return resolved.response;
    const idempotency = readIdempotencyKey(c.req.header(idempotencyKeyHeader));
    if (!idempotency.ok) return idempotency.response;
    // An unused id (or one another principal uses) starts a thread in this principal's namespace.
    const { threadId, access } = resolved;
    if (access === 'foreign') return threadNotFound(named);
    const body = await readJsonBody(c.req.raw, sendTurnBody);
    if (!body.ok) return problemResponse(body.problem);
    const { key } = idempotency;
    const requestId = key !== undefined ? requestIdOfKey({ principal, threadId, key }) : undefined;
    return respondWithTurn(c, context, {
      threadId,
      principal,
      created: access === 'absent',
      run: (signal) =>
        context.turns.send({
          threadId,
          text: body.value.text,
          principal,
          signal,
          ...(requestId !== undefined ? { requestId } : {}),
          ...liveDeltas(c.req.raw),
        }),
    });
  });

  app.post('/v1/threads/:threadId/suspensions/:suspensionId', async (c) => {
    const suspensionId = c.req.param('suspensionId');
    const principal = c.get('principal');
    const owned = await findOwnedThread(context, c.req.param('threadId'), principal);
    if (!owned.ok) return owned.response;
    const { threadId } = owned;
    const resume = context.agent.resume;
    if (typeof resume !== 'function') return notImplemented('resume', 'Answering suspensions');
    const body = await readJsonBody(c.req.raw, resumeBody);
    if (!body.ok) return problemResponse(body.problem);
    return respondWithTurn(c, context, {
      threadId,
      principal,
      created: false,
      run: (signal) =>
        resume.call(context.agent, {
          threadId,
          suspensionId,
          feedback: body.value.feedback,
          principal,
          signal,
          ...liveDeltas(c.req.raw),
        }),
    });
  });

  app.post('/v1/threads/:threadId/rollback', async (c) => {
    const principal = c.get('principal');
    const owned = await findOwnedThread(context, c.req.param('threadId'), principal);
    if (!owned.ok) return owned.response;
    const { threadId } = owned;
    const rollback = context.agent.rollback;
    if (typeof rollback !== 'function') return notImplemented('rollback', 'Rollback');
    const body = await readJsonBody(c.req.raw, rollbackBody);
    if (!body.ok) return problemResponse(body.problem);
    try {
      const { snapshotId, callId, force } = body.value;
      const result = await rollback.call(context.agent, {
        threadId,
        ...(snapshotId !== undefined ? { snapshotId } : {}),
        ...(callId !== undefined ? { callId } : {}),
        ...(force ? { force } : {}),
        principal,
      });
      return c.json({ threadId, result: result ?? null });
    } catch (error) {
      return problemResponse(toProblem(error, context.onError));
    }
  });

  app.post('/v1/threads/:threadId/cancel', async (c) => {
    const owned = await findOwnedThread(context, c.req.param('threadId'), c.get('principal'));
    if (!owned.ok) return owned.response;
    const { threadId } = owned;
    return c.json({ threadId, cancelled: context.runner.cancel(threadId) });
  });
}

/** A client that reads the turn as server-sent events gets the reply as it is written (its model calls stream). */
function liveDeltas(request: Request): { stream?: true } {
  return (request.headers.get('accept') ?? '').includes('text/event-stream') ? { stream: true } : {};
}

function notImplemented(capability: string, what: string): Response {
  return problemResponse(
    problem(501, 'not_implemented', `${what} needs an agent with ${capability}(); this agent has none.`, {
      capability,
    }),
  );
}
