/**
 * The SQLite store's schedules (table `schedules`, schema version 2): one JSON entry per id, read soonest
 * first by the in-process scheduler.
 */
import type Database from 'better-sqlite3';
import type { ScheduleEntry, StateStore } from '../../spec/index.js';

export function createSqliteSchedules(
  db: Database.Database,
  assertOpen: () => void,
): Required<Pick<StateStore, 'saveSchedule' | 'deleteSchedule' | 'listSchedules'>> {
  const upsert = db.prepare<[string, number, string]>(
    `INSERT INTO schedules (id, next_run_at, data) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET next_run_at = excluded.next_run_at, data = excluded.data`,
  );
  const remove = db.prepare<[string]>('DELETE FROM schedules WHERE id = ?');
  const list = db.prepare<[], { data: string }>('SELECT data FROM schedules ORDER BY next_run_at, id');
  return {
    async saveSchedule(entry: ScheduleEntry) {
      assertOpen();
      upsert.run(entry.id, entry.nextRunAt, JSON.stringify(entry));
    },
    async deleteSchedule(id: string) {
      assertOpen();
      return remove.run(id).changes > 0;
    },
    async listSchedules() {
      assertOpen();
      return list.all().map((row) => JSON.parse(row.data) as ScheduleEntry);
    },
  };
}
