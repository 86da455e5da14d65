/**
 * The tool a Schedule flow (seed 000's Schedule intent, seed 003's SCHEDULED_TASK strategy) calls to
 * schedule a message for later on its own thread: once at a time, every so many minutes, or at the times
 * of a cron expression ("every weekday at 9" in a time zone). It hands the
 * request to a `Scheduler` — the in-process one of the embedded default, or the BullMQ turn queue — so a
 * flow does not know where its schedule is kept. Scheduling the same id again replaces it, so the tool is
 * idempotent; without an id, the call's idempotency key names the schedule.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Scheduler } from '../spec/index.js';
import { defineTool } from './define-tool.js';
import type { ToolDefinition } from './tool-definition.js';

const scheduleInput = z.object({
  text: z.string().min(1).describe('The message to send to this conversation when the schedule fires.'),
  at: z.string().optional().describe('Fire once at this ISO 8601 date and time.'),
  everyMinutes: z.number().int().min(1).optional().describe('Fire repeatedly, every this many minutes.'),
  cron: z
    .string()
    .optional()
    .describe(
      'Fire at the times of this cron expression (minute hour day month weekday), e.g. "0 9 * * 1-5".',
    ),
  timezone: z
    .string()
    .optional()
    .describe('With cron: the IANA time zone of its times, e.g. "Europe/Paris"; default UTC.'),
  limit: z.number().int().min(1).optional().describe('With everyMinutes or cron: stop after this many runs.'),
  id: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,120}$/)
    .optional()
    .describe('A name for the schedule; scheduling the same name again replaces it.'),
});

/** `schedule_task`: schedules a message on the calling thread through `scheduler`. */
export function createScheduleTool(options: {
  /** The scheduler, or a function returning it (when the scheduler is made after the agent that runs it). */
  scheduler: Scheduler | (() => Scheduler);
  name?: string;
}): ToolDefinition {
  const scheduler = () => (typeof options.scheduler === 'function' ? options.scheduler() : options.scheduler);
  return defineTool({
    name: options.name ?? 'schedule_task',
    description:
      'Schedule a message to this conversation for later: once (at), every so many minutes (everyMinutes), or on a calendar (cron, timezone). Returns the schedule.',
    input: scheduleInput,
    idempotent: true,
    execute: async (input, context) => {
      const id =
        input.id ??
        `s-${createHash('sha256').update(context.idempotencyKey).digest('base64url').slice(0, 24)}`;
      const at = input.at === undefined ? undefined : Date.parse(input.at);
      const entry = await scheduler().schedule({
        id,
        threadId: context.threadId,
        text: input.text,
        ...(at !== undefined ? { at } : {}),
        ...(input.everyMinutes !== undefined ? { everyMs: input.everyMinutes * 60_000 } : {}),
        ...(input.cron !== undefined ? { cron: input.cron } : {}),
        ...(input.timezone !== undefined ? { timezone: input.timezone } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
      });
      return { id: entry.id, nextRunAt: new Date(entry.nextRunAt).toISOString(), text: entry.text };
    },
  }) as ToolDefinition;
}
