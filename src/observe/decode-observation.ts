/**
 * Turns a stored observation row back into the observation it was. A row that does not parse is
 * returned as an `error` observation with the row's id, so that a reader neither crashes nor silently
 * skips an id.
 */
import type { Observation, ObservationRow } from '../spec/index.js';

export function decodeObservation(row: ObservationRow): Observation {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.data);
  } catch {
    parsed = undefined;
  }
  if (isObservationShape(parsed)) return { ...parsed, id: row.id, threadId: row.threadId };
  return {
    specVersion: 1,
    id: row.id,
    threadId: row.threadId,
    turnId: '',
    type: 'error',
    time: row.createdAt,
    data: { phase: 'decode', message: `Stored observation ${row.id} (${row.type}) cannot be read.` },
  };
}

function isObservationShape(value: unknown): value is Omit<Observation, 'id'> {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v.specVersion === 1 &&
    typeof v.type === 'string' &&
    typeof v.turnId === 'string' &&
    typeof v.time === 'number' &&
    typeof v.data === 'object' &&
    v.data !== null
  );
}
