/**
 * Display frames: the thread's frames, each with the turn that made it (a page shows them beside that
 * turn's reply, and again after a reload); and their further pages — a frame keeps its first page of
 * rows and a `tableId`; the rest of the rows are stored with the thread and read here one page at a
 * time, page 1 being the frame's own.
 */
import type { Hono } from 'hono';
import { defaultFramePageRows, readTablePage } from '../../respond/index.js';
import { problem, problemResponse } from '../problem-details.js';
import type { ServerContext, ServerEnv } from '../server-types.js';
import { findOwnedThread } from '../thread-access.js';

export function registerFrameRoutes(app: Hono<ServerEnv>, context: ServerContext): void {
  app.get('/v1/threads/:threadId/frames', async (c) => {
    const owned = await findOwnedThread(context, c.req.param('threadId'), c.get('principal'));
    if (!owned.ok) return owned.response;
    const { threadId } = owned;
    const frames: Array<{ turnId: string; frame: unknown }> = [];
    for (const row of await context.agent.store.readHistory(threadId)) {
      if (row.kind !== 'frame') continue;
      // The stored row holds every row of a large table too: the list gives the frame (its first page).
      const { frame } = JSON.parse(row.data) as { frame?: unknown };
      if (frame !== undefined) frames.push({ turnId: row.turnId, frame });
    }
    return c.json({ frames });
  });

  app.get('/v1/threads/:threadId/frames/:tableId', async (c) => {
    const owned = await findOwnedThread(context, c.req.param('threadId'), c.get('principal'));
    if (!owned.ok) return owned.response;
    const { threadId } = owned;
    const pageText = c.req.query('page') ?? '1';
    const page = Number(pageText);
    if (!Number.isInteger(page) || page < 1)
      return problemResponse(problem(400, 'invalid_page', 'page must be a whole number from 1.'));
    const tableId = c.req.param('tableId');
    const table = await readTablePage({
      store: context.agent.store,
      threadId,
      tableId,
      offset: (page - 1) * defaultFramePageRows,
      limit: defaultFramePageRows,
    });
    if (!table)
      return problemResponse(
        problem(404, 'frame_not_found', `Thread '${threadId}' has no stored table '${tableId}'.`),
      );
    const pages = Math.max(1, Math.ceil(table.totalRows / defaultFramePageRows));
    if (page > pages)
      return problemResponse(
        problem(
          400,
          'invalid_page',
          `Table '${tableId}' has ${pages} pages of ${defaultFramePageRows} rows.`,
        ),
      );
    return c.json({
      tableId,
      page,
      pages,
      pageRows: defaultFramePageRows,
      totalRows: table.totalRows,
      rows: table.rows,
    });
  });
}
