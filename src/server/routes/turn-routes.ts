/**
 * Work on a thread: send a message, answer a suspension, roll back, cancel the running turn. Resume
 * and rollback need the durability layer; an agent without them answers 501.
 */
import type { Hono } from 'hono';
import { resumeBody, rollbackBody, sendTurnBody } from '../api-schemas.js';
import { readJsonBody } from '../internal/read-json-body.js';
import { problem, problemResponse, toProblem } from '../problem-details.js';
import { respondWithTurn } from '../respond-with-turn.js';
import type { ServerContext, ServerEnv } from '../server-types.js';
import { checkThreadAccess, checkThreadId, threadNotFound } from '../thread-access.js';

export function registerTurnRoutes(app: Hono<ServerEnv>, context: ServerContext): void {
  app.post('/v1/threads/:threadId/messages', async (c) => {
    const threadId = c.req.param('threadId');
    const invalid = checkThreadId(threadId);
    if (invalid) return invalid;
    const principal = c.get('principal');
    const access = await checkThreadAccess(context, threadId, principal);
    if (access === 'foreign') return threadNotFound(threadId);
    const body = await readJsonBody(c.req.raw, sendTurnBody);
    if (!body.ok) return problemResponse(body.problem);
    return respondWithTurn(c, context, {
      threadId,
      principal,
      created: access === 'absent',
      run: (signal) =>
        context.turns.send({ threadId, text: body.value.text, principal, signal, ...liveDeltas(c.req.raw) }),
    });
  });

  app.post('/v1/threads/:threadId/suspensions/:suspensionId', async (c) => {
    const threadId = c.req.param('threadId');
    const suspensionId = c.req.param('suspensionId');
    const invalid = checkThreadId(threadId);
    if (invalid) return invalid;
    const principal = c.get('principal');
    if ((await checkThreadAccess(context, threadId, principal)) !== 'owned') return threadNotFound(threadId);
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
    const threadId = c.req.param('threadId');
    const invalid = checkThreadId(threadId);
    if (invalid) return invalid;
    const principal = c.get('principal');
    if ((await checkThreadAccess(context, threadId, principal)) !== 'owned') return threadNotFound(threadId);
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
    const threadId = c.req.param('threadId');
    const invalid = checkThreadId(threadId);
    if (invalid) return invalid;
    if ((await checkThreadAccess(context, threadId, c.get('principal'))) !== 'owned')
      return threadNotFound(threadId);
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
