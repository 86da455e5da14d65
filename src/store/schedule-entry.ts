/**
 * Schedules as data (src/spec/schedule-spec.ts): checking a request, and the next entry after a run.
 * Pure, so the BullMQ queue and the in-process scheduler agree on what a schedule means.
 */
import { createRequire } from 'node:module';
import type { CronExpressionParser } from 'cron-parser';
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
  const cron = request.cron !== undefined;
  if (Number(once) + Number(repeat) + Number(cron) !== 1)
    problems.push('give exactly one of at (once), everyMs (repeating) and cron (repeating on a calendar)');
  if (once && !Number.isFinite(request.at)) problems.push('at must be a time in milliseconds');
  if (repeat && !(Number.isInteger(request.everyMs) && (request.everyMs as number) >= 1_000))
    problems.push('everyMs must be a whole number of milliseconds, at least 1000');
  if (request.timezone !== undefined && !cron) problems.push('timezone goes with cron');
  if (cron) problems.push(...checkCron(request));
  if (request.limit !== undefined && !(Number.isInteger(request.limit) && request.limit >= 1))
    problems.push('limit must be a whole number of runs, at least 1');
  if (problems.length > 0)
    throw new InputError({ reason: 'invalid', message: `Invalid schedule: ${problems.join('; ')}.` });
  const nextRunAt = once
    ? (request.at as number)
    : cron
      ? nextCronTime(request, Math.max(now, (request.startAt ?? now) - 1))
      : (request.startAt ?? now + (request.everyMs as number));
  return { ...request, specVersion: 1, nextRunAt, runs: 0, createdAt: now };
}

/** What is wrong with a request's cron expression and time zone (nothing: an empty list). */
function checkCron(request: ScheduleRequest): string[] {
  if (typeof request.cron !== 'string' || request.cron.trim() === '') return ['cron must be an expression'];
  const fields = request.cron.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6)
    return [`cron must have 5 fields (minute hour day month weekday) or 6 (seconds first), not ${fields}`];
  if (request.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: request.timezone });
    } catch {
      return [`timezone '${request.timezone}' is not an IANA time zone (e.g. Europe/Paris)`];
    }
  }
  try {
    cronParser()
      .parse(request.cron, { tz: request.timezone ?? 'UTC' })
      .next();
    return [];
  } catch (error) {
    return [
      `cron '${request.cron}' cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    ];
  }
}

/** The first time of the schedule's cron expression after `after` (ms since the epoch). */
function nextCronTime(entry: Pick<ScheduleRequest, 'cron' | 'timezone'>, after: number): number {
  return cronParser()
    .parse(entry.cron as string, {
      currentDate: new Date(after),
      tz: entry.timezone ?? 'UTC',
    })
    .next()
    .getTime();
}

/**
 * The entry after the run that was due at `entry.nextRunAt`: the next time of a repeating schedule, or
 * undefined when the schedule is spent (a one-off, or a repeating one at its limit). Missed periods are
 * skipped, not run in a burst: the next time is the first one after `now`.
 */
export function advanceScheduleEntry(entry: ScheduleEntry, now: number): ScheduleEntry | undefined {
  const runs = entry.runs + 1;
  if (entry.limit !== undefined && runs >= entry.limit) return undefined;
  if (entry.cron !== undefined)
    return { ...entry, runs, nextRunAt: nextCronTime(entry, Math.max(now, entry.nextRunAt)) };
  if (entry.everyMs === undefined) return undefined;
  const periods = Math.max(1, Math.floor((now - entry.nextRunAt) / entry.everyMs) + 1);
  return { ...entry, runs, nextRunAt: entry.nextRunAt + periods * entry.everyMs };
}

let loadedCronParser: typeof CronExpressionParser | undefined;

/** cron-parser (with its calendar library) loads when a cron schedule is first read, not with flowstack. */
function cronParser(): typeof CronExpressionParser {
  loadedCronParser ??= (createRequire(import.meta.url)('cron-parser') as typeof import('cron-parser'))
    .CronExpressionParser;
  return loadedCronParser;
}
