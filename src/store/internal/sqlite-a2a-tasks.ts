/**
 * The SQLite store's A2A tasks (table `a2a_tasks`, schema version 3): one JSON task per scope and id,
 * listed most recently updated first.
 */
import type Database from 'better-sqlite3';
import type { StateStore, StoredA2ATask } from '../../spec/index.js';

interface TaskRow {
  scope: string;
  task_id: string;
  context_id: string;
  updated_at: number;
  data: string;
}

export function createSqliteA2ATasks(
  db: Database.Database,
  assertOpen: () => void,
): Required<Pick<StateStore, 'saveA2ATask' | 'loadA2ATask' | 'listA2ATasks'>> {
  const upsert = db.prepare<[string, string, string, number, string]>(
    `INSERT INTO a2a_tasks (scope, task_id, context_id, updated_at, data) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (scope, task_id) DO UPDATE SET
       context_id = excluded.context_id, updated_at = excluded.updated_at, data = excluded.data`,
  );
  const select = db.prepare<[string, string], TaskRow>(
    'SELECT * FROM a2a_tasks WHERE scope = ? AND task_id = ?',
  );
  const list = db.prepare<[string], TaskRow>(
    'SELECT * FROM a2a_tasks WHERE scope = ? ORDER BY updated_at DESC, task_id DESC',
  );
  const listInContext = db.prepare<[string, string], TaskRow>(
    'SELECT * FROM a2a_tasks WHERE scope = ? AND context_id = ? ORDER BY updated_at DESC, task_id DESC',
  );
  return {
    async saveA2ATask(task) {
      assertOpen();
      upsert.run(task.scope, task.taskId, task.contextId, task.updatedAt, task.data);
    },
    async loadA2ATask({ scope, taskId }) {
      assertOpen();
      const row = select.get(scope, taskId);
      return row && toTask(row);
    },
    async listA2ATasks({ scope, contextId }) {
      assertOpen();
      const rows = contextId === undefined ? list.all(scope) : listInContext.all(scope, contextId);
      return rows.map(toTask);
    },
  };
}

function toTask(row: TaskRow): StoredA2ATask {
  return {
    scope: row.scope,
    taskId: row.task_id,
    contextId: row.context_id,
    updatedAt: row.updated_at,
    data: row.data,
  };
}
