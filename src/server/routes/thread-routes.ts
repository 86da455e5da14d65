/**
 * Threads: list the principal's threads, start one with a first message, read one, read its stored
 * observations.
 */
import type { Hono } from 'hono';
import { replayObservations, summarizeThreadEvents } from '../../observe/index.js';
import type { Observation } from '../../spec/index.js';
import { sendTurnBody } from '../api-schemas.js';
import { describeFileSnapshots, describeSuspensions } from '../describe-thread-state.js';
import {
  idempotencyKeyHeader,
  readIdempotencyKey,
  requestIdOfKey,
  threadIdOfKey,
} from '../idempotency-key.js';
import { readJsonBody } from '../internal/read-json-body.js';
import { readResumeId } from '../internal/sse-observations.js';
import { readThreadTitle } from '../internal/thread-title.js';
import { problem, problemResponse } from '../problem-details.js';
import { respondWithTurn } from '../respond-with-turn.js';
import type { ServerContext, ServerEnv } from '../server-types.js';
import { checkThreadAccess, findOwnedThread, threadNotFound } from '../thread-access.js';

const maxListLimit = 500;

export function registerThreadRoutes(app: Hono<ServerEnv>, context: ServerContext): void {
  app.get('/v1/threads', async (c) => {
    const limit = readLimit(c.req.query('limit'), 100);
    if (limit === undefined) return badLimit();
    const threads = await context.agent.store.listThreads({ principal: c.get('principal'), limit });
    const titles = await Promise.all(threads.map((t) => readThreadTitle(context.agent.store, t.threadId)));
    return c.json({
      threads: threads.map(({ threadId, version, createdAt, updatedAt }, index) => ({
        threadId,
        ...(titles[index] !== undefined ? { title: titles[index] } : {}),
        version,
        createdAt,
        updatedAt,
      })),
    });
  });

  app.post('/v1/threads', async (c) => {
    const idempotency = readIdempotencyKey(c.req.header(idempotencyKeyHeader));
    if (!idempotency.ok) return idempotency.response;
    const body = await readJsonBody(c.req.raw, sendTurnBody);
    if (!body.ok) return problemResponse(body.problem);
    const principal = c.get('principal');
    const { key } = idempotency;
    // With a key, a retry starts no second thread: it lands on the first attempt's thread and request.
    const threadId = key !== undefined ? threadIdOfKey({ principal, key }) : context.ids('thread');
    if (key !== undefined && (await checkThreadAccess(context, threadId, principal)) === 'foreign')
      return threadNotFound(threadId);
    const requestId = key !== undefined ? requestIdOfKey({ principal, threadId, key }) : undefined;
    return respondWithTurn(c, context, {
      threadId,
      principal,
      created: true,
      run: (signal) =>
        context.turns.send({
          threadId,
          text: body.value.text,
          principal,
          signal,
          ...(requestId !== undefined ? { requestId } : {}),
        }),
    });
  });

  app.get('/v1/threads/:threadId', async (c) => {
    const owned = await findOwnedThread(context, c.req.param('threadId'), c.get('principal'));
    if (!owned.ok) return owned.response;
    const { threadId } = owned;
    const running = context.runner.isRunning(threadId);
    if (!(await context.agent.store.loadThread(threadId))) {
      // Started through this server and not saved yet.
      return c.json({
        threadId,
        version: 0,
        running,
        stack: [],
        suspensions: [],
        messages: [],
        lastEventId: 0,
        capabilities: capabilities(context),
      });
    }
    const thread = await context.agent.readThread(threadId);
    const events = await summarizeThreadEvents(context.agent.store, threadId);
    const fileSnapshots = describeFileSnapshots(thread);
    return c.json({
      threadId,
      version: thread.version,
      running,
      stack: thread.snapshot.stack,
      ...(thread.snapshot.pending ? { pending: thread.snapshot.pending } : {}),
      suspensions: describeSuspensions(thread, events.suspensions),
      ...(fileSnapshots ? { fileSnapshots } : {}),
      messages: thread.messages,
      lastEventId: events.lastEventId,
      capabilities: capabilities(context),
    });
  });

  app.get('/v1/threads/:threadId/observations', async (c) => {
    const owned = await findOwnedThread(context, c.req.param('threadId'), c.get('principal'));
    if (!owned.ok) return owned.response;
    const { threadId } = owned;
    const afterId = readResumeId(undefined, c.req.query('after'));
    if (afterId === undefined)
      return problemResponse(problem(400, 'invalid_after', 'after must be an event id.'));
    const limit = readLimit(c.req.query('limit'), 1_000, 10_000);
    if (limit === undefined) return badLimit();
    const observations: Observation[] = [];
    for await (const o of replayObservations(context.agent.store, threadId, { afterId, limit }))
      observations.push(o);
    return c.json({ observations });
  });
}

export function capabilities(context: ServerContext) {
  return {
    resume: typeof context.agent.resume === 'function',
    rollback: typeof context.agent.rollback === 'function',
  };
}

export function readLimit(
  value: string | undefined,
  fallback: number,
  max = maxListLimit,
): number | undefined {
  if (value === undefined) return fallback;
  const limit = Number(value);
  return Number.isInteger(limit) && limit >= 1 && limit <= max ? limit : undefined;
}

function badLimit(): Response {
  return problemResponse(problem(400, 'invalid_limit', 'limit must be a whole number in range.'));
}
