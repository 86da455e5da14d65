/**
 * Who may touch a thread: the principal that started it. A thread of another principal answers
 * exactly like a thread that does not exist (404), so that ids cannot be probed.
 */
import { problem, problemResponse } from './problem-details.js';
import type { ServerContext } from './server-types.js';

export type ThreadAccess = 'owned' | 'absent' | 'foreign';

/** Thread ids a client may name: 1–128 letters, digits and `_ . : -`. */
export const threadIdPattern = /^[\w.:-]{1,128}$/;

export async function checkThreadAccess(
  context: ServerContext,
  threadId: string,
  principal: string,
): Promise<ThreadAccess> {
  const stored = await context.agent.store.loadThread(threadId);
  if (stored) return stored.principal === principal ? 'owned' : 'foreign';
  const starting = context.runner.ownerOf(threadId);
  if (starting !== undefined) return starting === principal ? 'owned' : 'foreign';
  return 'absent';
}

/** The 404 every inaccessible thread gets. */
export function threadNotFound(threadId: string): Response {
  return problemResponse(problem(404, 'thread_not_found', `No thread '${threadId}'.`, { threadId }));
}

/** A 400 for a malformed id, or undefined when the id is fine. */
export function checkThreadId(threadId: string): Response | undefined {
  if (threadIdPattern.test(threadId)) return undefined;
  return problemResponse(
    problem(400, 'invalid_thread_id', 'A thread id has 1–128 letters, digits, _ . : or -.'),
  );
}
