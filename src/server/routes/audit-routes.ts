/**
 * The audit log of tool calls (DESIGN.md §6), limited to the principal's own threads.
 */
import type { Hono } from 'hono';
import type { AuditRecord } from '../../spec/index.js';
import { problem, problemResponse } from '../problem-details.js';
import type { ServerContext, ServerEnv } from '../server-types.js';
import { findOwnedThread } from '../thread-access.js';
import { readLimit } from './thread-routes.js';

/** Records scanned when filtering the whole log by principal (the store cannot filter by principal). */
const scanLimit = 10_000;

export function registerAuditRoutes(app: Hono<ServerEnv>, context: ServerContext): void {
  app.get('/v1/audit', async (c) => {
    const principal = c.get('principal');
    const limit = readLimit(c.req.query('limit'), 100, 1_000);
    if (limit === undefined) return problemResponse(problem(400, 'invalid_limit', 'limit must be 1–1000.'));
    const named = c.req.query('threadId');
    let records: AuditRecord[];
    if (named !== undefined) {
      const thread = await findOwnedThread(context, named, principal);
      if (!thread.ok) return thread.response;
      records = await context.agent.store.readAudit({ threadId: thread.threadId, limit });
    } else {
      const owned = new Set(
        (await context.agent.store.listThreads({ principal, limit: scanLimit })).map((t) => t.threadId),
      );
      records = (await context.agent.store.readAudit({ limit: scanLimit }))
        .filter((r) => owned.has(r.threadId))
        .slice(0, limit);
    }
    return c.json({ records });
  });
}
