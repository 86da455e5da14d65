/**
 * Who may touch a thread, and which thread an id in a request names. A thread belongs to the principal
 * that started it, and a client-chosen id is the principal's own: an id nobody of this principal uses
 * names a thread in the principal's namespace (stored as `<id>~<namespace>`), so another principal's
 * thread of the same id is neither reachable nor in the way. Whether someone else uses an id therefore
 * changes no answer — "someone else's" and "unused" look the same (no probing), and nobody can take an
 * id away from another principal (no squatting). Ids the server made (random, or derived from the
 * principal's Idempotency-Key) and threads a principal already owns under a bare id are used as they are.
 * docs/decisions/0066-thread-ids-per-principal.md.
 */
import { createHash } from 'node:crypto';
import { problem, problemResponse } from './problem-details.js';
import type { ServerContext } from './server-types.js';

export type ThreadAccess = 'owned' | 'absent' | 'foreign';

/** Thread ids a client may name: 1–128 letters, digits and `_ . : -`, optionally with its namespace (`~…`). */
export const threadIdPattern = /^[\w.:-]{1,128}(?:~[\w-]{12})?$/;

const namespaceMark = '~';

/** The principal's namespace of thread ids: a short digest, the same in every process. */
export function threadNamespaceOf(principal: string): string {
  return createHash('sha256')
    .update(`flowstack thread namespace\n${principal}`)
    .digest('base64url')
    .slice(0, 12);
}

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

/** The thread an id in a request names for this principal (its store id), and the principal's access. */
export type ResolvedThread =
  | { ok: true; threadId: string; access: ThreadAccess }
  | { ok: false; response: Response };

export async function resolveThread(
  context: ServerContext,
  named: string,
  principal: string,
): Promise<ResolvedThread> {
  const invalid = checkThreadId(named);
  if (invalid) return { ok: false, response: invalid };
  const namespace = threadNamespaceOf(principal);
  const mark = named.indexOf(namespaceMark);
  if (mark >= 0) {
    // Another principal's namespace is never reachable, whether or not the thread exists.
    if (named.slice(mark + 1) !== namespace) return { ok: true, threadId: named, access: 'foreign' };
    return { ok: true, threadId: named, access: await checkThreadAccess(context, named, principal) };
  }
  if ((await checkThreadAccess(context, named, principal)) === 'owned')
    return { ok: true, threadId: named, access: 'owned' };
  const own = `${named}${namespaceMark}${namespace}`;
  return { ok: true, threadId: own, access: await checkThreadAccess(context, own, principal) };
}

/** The store id of a thread the principal owns, or the answer (400, 404) to send instead. */
export async function findOwnedThread(
  context: ServerContext,
  named: string,
  principal: string,
): Promise<{ ok: true; threadId: string } | { ok: false; response: Response }> {
  const resolved = await resolveThread(context, named, principal);
  if (!resolved.ok) return resolved;
  if (resolved.access !== 'owned') return { ok: false, response: threadNotFound(named) };
  return { ok: true, threadId: resolved.threadId };
}

/** The 404 every inaccessible thread gets, naming the id as the client sent it. */
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
