/**
 * Threads: list the principal's threads, start one with a first message, read one, read its stored
 * observations.
 */
import type { Hono } from 'hono';
import { replayObservations, summarizeThreadEvents } from '../../observe/index.js';
import type { Observation } from '../../spec/index.js';
import { sendTurnBody } from '../api-schemas.js';
import { describeFileSnapshots, describeSuspensions } from '../describe-thread-state.js';
import { readJsonBody } from '../internal/read-json-body.js';
import { readResumeId } from '../internal/sse-observations.js';
import { readThreadTitle } from '../internal/thread-title.js';
import { problem, problemResponse } from '../problem-details.js';
import { respondWithTurn } from '../respond-with-turn.js';
import type { ServerContext, ServerEnv } from '../server-types.js';
import { checkThreadAccess, checkThreadId, threadNotFound } from '../thread-access.js';

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
    const body = await readJsonBody(c.req.raw, sendTurnBody);
    if (!body.ok) return problemResponse(body.problem);
    const principal = c.get('principal');
    const threadId = context.ids('thread');
    return respondWithTurn(c, context, {
      threadId,
      principal,
      created: true,
      run: (signal) => context.turns.send({ threadId, text: body.value.text, principal, signal }),
    });
  });

  app.get('/v1/threads/:threadId', async (c) => {
    const threadId = c.req.param('threadId');
    const invalid = checkThreadId(threadId);
    if (invalid) return invalid;
    const access = await checkThreadAccess(context, threadId, c.get('principal'));
    if (access !== 'owned') return threadNotFound(threadId);
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
    const threadId = c.req.param('threadId');
    const invalid = checkThreadId(threadId);
    if (invalid) return invalid;
    if ((await checkThreadAccess(context, threadId, c.get('principal'))) !== 'owned')
      return threadNotFound(threadId);
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
