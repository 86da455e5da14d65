/**
 * `DELETE /v1/threads/{id}`: the owner deletes a thread and everything kept of it (`agent.deleteThread`,
 * docs/decisions/0076). Another principal's thread answers 404 as an unknown one does; a thread with a
 * message running or waiting its turn in this process answers 409, so no queued turn writes it again.
 * Behind a turn queue that keeps schedules (the BullMQ queue), the thread's schedules there go too.
 */
import type { Hono } from 'hono';
import { ThreadNotFoundError } from '../../errors/index.js';
import type { Scheduler } from '../../spec/index.js';
import { problem, problemResponse, toProblem } from '../problem-details.js';
import type { ServerContext, ServerEnv, TurnSender } from '../server-types.js';
import { findOwnedThread, threadNotFound } from '../thread-access.js';

export function registerDeleteRoutes(app: Hono<ServerEnv>, context: ServerContext): void {
  app.delete('/v1/threads/:threadId', async (c) => {
    const named = c.req.param('threadId');
    const principal = c.get('principal');
    const owned = await findOwnedThread(context, named, principal);
    if (!owned.ok) return owned.response;
    const { threadId } = owned;
    const deleteThread = context.agent.deleteThread;
    if (typeof deleteThread !== 'function')
      return problemResponse(
        problem(
          501,
          'not_implemented',
          'Deleting threads needs an agent with deleteThread(); this agent has none.',
        ),
      );
    if (context.runner.isRunning(threadId))
      return problemResponse(
        problem(
          409,
          'thread_busy',
          `Thread '${named}' has a turn running or waiting; delete it afterwards.`,
          {
            threadId: named,
          },
        ),
      );
    try {
      // Before the thread: a deletion refused now leaves the thread, and a schedule left behind would
      // start it again.
      await removeQueueSchedules(context.turns, threadId);
      await deleteThread.call(context.agent, { threadId, principal });
      return c.body(null, 204);
    } catch (error) {
      if (ThreadNotFoundError.isInstance(error)) return threadNotFound(named);
      return problemResponse(toProblem(error, context.onError));
    }
  });
}

/** Removes the schedules a scheduling turn queue keeps for the thread (the store's go with the thread). */
async function removeQueueSchedules(turns: TurnSender, threadId: string): Promise<void> {
  const scheduler = turns as TurnSender & Partial<Scheduler>;
  if (typeof scheduler.listSchedules !== 'function' || typeof scheduler.unschedule !== 'function') return;
  for (const entry of await scheduler.listSchedules())
    if (entry.threadId === threadId) await scheduler.unschedule(entry.id);
}
