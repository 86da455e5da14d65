import { describe, expect, it } from 'vitest';
import { InputError } from '../errors/index.js';
import { advanceScheduleEntry, createScheduleEntry } from './schedule-entry.js';

const now = 1_700_000_000_000;

describe('schedule entries', () => {
  it('fires a one-off at its time, a repeating one a period from now or at its start', () => {
    expect(createScheduleEntry({ id: 'a', threadId: 't', text: 'x', at: now + 5 }, now)).toMatchObject({
      specVersion: 1,
      nextRunAt: now + 5,
      runs: 0,
      createdAt: now,
    });
    expect(createScheduleEntry({ id: 'b', threadId: 't', text: 'x', everyMs: 60_000 }, now).nextRunAt).toBe(
      now + 60_000,
    );
    expect(
      createScheduleEntry({ id: 'c', threadId: 't', text: 'x', everyMs: 60_000, startAt: now + 1 }, now)
        .nextRunAt,
    ).toBe(now + 1);
  });

  it('lists every problem of a bad request in one InputError', () => {
    const error = (() => {
      try {
        createScheduleEntry({ id: 'no spaces', threadId: '', text: ' ', everyMs: 10, limit: 0 }, now);
      } catch (caught) {
        return caught;
      }
    })();
    expect(InputError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /id must.*threadId is required.*text is required.*everyMs.*limit/,
    );
  });

  it('ends a one-off after its run, a repeating one at its limit, and skips missed periods', () => {
    const once = createScheduleEntry({ id: 'a', threadId: 't', text: 'x', at: now }, now);
    expect(advanceScheduleEntry(once, now)).toBeUndefined();
    const every = createScheduleEntry({ id: 'b', threadId: 't', text: 'x', everyMs: 1_000, limit: 2 }, now);
    const second = advanceScheduleEntry(every, every.nextRunAt);
    expect(second).toMatchObject({ runs: 1, nextRunAt: every.nextRunAt + 1_000 });
    expect(advanceScheduleEntry(second as typeof every, (second as typeof every).nextRunAt)).toBeUndefined();
    // Down for 3.5 periods: the next run is the first one after now, not a burst of the missed ones.
    const late = advanceScheduleEntry({ ...every, limit: undefined }, every.nextRunAt + 3_500);
    expect(late?.nextRunAt).toBe(every.nextRunAt + 4_000);
  });
});
