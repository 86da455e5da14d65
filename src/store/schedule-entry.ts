/**
 * Schedules as data (src/spec/schedule-spec.ts): checking a request, and the next entry after a run.
 * Pure, so the BullMQ queue and the in-process scheduler agree on what a schedule means.
 */
import { InputError } from '../errors/index.js';
import type { ScheduleEntry, ScheduleRequest } from '../spec/index.js';

const idPattern = /^[A-Za-z0-9_.-]{1,120}$/;

/** Checks a request and makes the entry to keep; a bad request is an `InputError` listing what is wrong. */
export function createScheduleEntry(request: ScheduleRequest, now: number): ScheduleEntry {
  const problems: string[] = [];
  if (!idPattern.test(request.id)) problems.push('id must be 1–120 letters, digits, `_`, `-` or `.`');
  if (typeof request.threadId !== 'string' || request.threadId === '') problems.push('threadId is required');
  if (typeof request.text !== 'string' || request.text.trim() === '') problems.push('text is required');
  const once = request.at !== undefined;
  const repeat = request.everyMs !== undefined;
  if (once === repeat) problems.push('give exactly one of at (once) and everyMs (repeating)');
  if (once && !Number.isFinite(request.at)) problems.push('at must be a time in milliseconds');
  if (repeat && !(Number.isInteger(request.everyMs) && (request.everyMs as number) >= 1_000))
    problems.push('everyMs must be a whole number of milliseconds, at least 1000');
  if (request.limit !== undefined && !(Number.isInteger(request.limit) && request.limit >= 1))
    problems.push('limit must be a whole number of runs, at least 1');
  if (problems.length > 0)
    throw new InputError({ reason: 'invalid', message: `Invalid schedule: ${problems.join('; ')}.` });
  const nextRunAt = once ? (request.at as number) : (request.startAt ?? now + (request.everyMs as number));
  return { ...request, specVersion: 1, nextRunAt, runs: 0, createdAt: now };
}

/**
 * The entry after the run that was due at `entry.nextRunAt`: the next time of a repeating schedule, or
 * undefined when the schedule is spent (a one-off, or a repeating one at its limit). Missed periods are
 * skipped, not run in a burst: the next time is the first one after `now`.
 */
export function advanceScheduleEntry(entry: ScheduleEntry, now: number): ScheduleEntry | undefined {
  const runs = entry.runs + 1;
  if (entry.everyMs === undefined) return undefined;
  if (entry.limit !== undefined && runs >= entry.limit) return undefined;
  const periods = Math.max(1, Math.floor((now - entry.nextRunAt) / entry.everyMs) + 1);
  return { ...entry, runs, nextRunAt: entry.nextRunAt + periods * entry.everyMs };
}
