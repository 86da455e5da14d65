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

  describe('on a calendar (cron)', () => {
    // Wednesday 25 November 2026, 12:00 UTC.
    const noon = Date.UTC(2026, 10, 25, 12, 0, 0);

    it('fires at the expression’s next time, in UTC or in the given time zone', () => {
      const weekdays = createScheduleEntry({ id: 'w', threadId: 't', text: 'x', cron: '0 9 * * 1-5' }, noon);
      expect(new Date(weekdays.nextRunAt).toISOString()).toBe('2026-11-26T09:00:00.000Z');
      const paris = createScheduleEntry(
        { id: 'p', threadId: 't', text: 'x', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
        noon,
      );
      expect(new Date(paris.nextRunAt).toISOString()).toBe('2026-11-26T08:00:00.000Z');
      // Friday's run is followed by Monday's, not the weekend's.
      const friday = { ...weekdays, nextRunAt: Date.UTC(2026, 10, 27, 9) };
      expect(new Date(advanceScheduleEntry(friday, friday.nextRunAt)?.nextRunAt ?? 0).toISOString()).toBe(
        '2026-11-30T09:00:00.000Z',
      );
    });

    it('skips the times it missed while down, honours startAt and stops at its limit', () => {
      const hourly = createScheduleEntry(
        { id: 'h', threadId: 't', text: 'x', cron: '0 * * * *', limit: 3 },
        noon,
      );
      expect(hourly.nextRunAt).toBe(noon + 3_600_000);
      // Down from 13:00 to 16:20: the next run is 17:00, once.
      const late = advanceScheduleEntry(hourly, noon + 4 * 3_600_000 + 20 * 60_000);
      expect(late).toMatchObject({ runs: 1, nextRunAt: noon + 5 * 3_600_000 });
      expect(advanceScheduleEntry(late as typeof hourly, noon + 5 * 3_600_000)).toMatchObject({ runs: 2 });
      expect(advanceScheduleEntry({ ...hourly, runs: 2 }, noon + 3_600_000)).toBeUndefined();
      const later = createScheduleEntry(
        { id: 's', threadId: 't', text: 'x', cron: '0 * * * *', startAt: noon + 3 * 3_600_000 },
        noon,
      );
      expect(later.nextRunAt).toBe(noon + 3 * 3_600_000);
    });

    it('refuses an expression it cannot read, a wrong field count, an unknown zone, and mixing kinds', () => {
      const problems = (request: Parameters<typeof createScheduleEntry>[0]) => {
        try {
          createScheduleEntry(request, noon);
          return '';
        } catch (error) {
          expect(InputError.isInstance(error)).toBe(true);
          return (error as Error).message;
        }
      };
      expect(problems({ id: 'a', threadId: 't', text: 'x', cron: '61 * * * *' })).toMatch(
        /cron '61 \* \* \* \*' cannot be read/,
      );
      expect(problems({ id: 'a', threadId: 't', text: 'x', cron: '* * *' })).toMatch(/5 fields .* not 3/);
      expect(
        problems({ id: 'a', threadId: 't', text: 'x', cron: '0 9 * * *', timezone: 'Mars/Olympus' }),
      ).toMatch(/timezone 'Mars\/Olympus' is not an IANA time zone/);
      expect(problems({ id: 'a', threadId: 't', text: 'x', cron: '0 9 * * *', everyMs: 60_000 })).toMatch(
        /exactly one of/,
      );
      expect(problems({ id: 'a', threadId: 't', text: 'x', everyMs: 60_000, timezone: 'UTC' })).toMatch(
        /timezone goes with cron/,
      );
    });
  });
});
