import type {
  FileFingerprint,
  FileSnapshotEvent,
  FileSnapshotStatus,
  RollbackReport,
} from '../spec/index.js';

/** Where a snapshot stands, read from its journal. */
export interface FileSnapshotProgress {
  status: FileSnapshotStatus;
  /** Steps of the rollback plan recorded as done. */
  done: ReadonlySet<number>;
  /** What a started rollback will report. */
  planned?: { restored: string[]; removed: string[] };
  /** The report of a finished rollback. */
  report?: RollbackReport;
  /** The files as the call left them (the last status that recorded them). */
  after?: FileFingerprint[];
}

/**
 * A snapshot's state from its journal, oldest line first. Pure. A finished rollback is final; a
 * started one stays `rolling-back` until its last step, whatever else is recorded meanwhile.
 */
export function foldSnapshotEvents(events: readonly FileSnapshotEvent[]): FileSnapshotProgress {
  let status: FileSnapshotStatus = 'taken';
  const done = new Set<number>();
  let report: RollbackReport | undefined;
  let planned: FileSnapshotProgress['planned'];
  let after: FileFingerprint[] | undefined;
  for (const event of events) {
    if (report) break;
    if (event.type === 'status' && event.after) after = event.after;
    if (event.type === 'status' && status !== 'rolling-back') status = event.status;
    else if (event.type === 'rollback-start') {
      status = 'rolling-back';
      planned ??= { restored: event.restored, removed: event.removed };
    } else if (event.type === 'step-done') done.add(event.step);
    else if (event.type === 'rollback-done') {
      status = 'rolled-back';
      report = event.report;
    }
  }
  return {
    status,
    done,
    ...(planned ? { planned } : {}),
    ...(report ? { report } : {}),
    ...(after ? { after } : {}),
  };
}
