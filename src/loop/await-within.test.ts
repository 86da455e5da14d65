import { describe, expect, it } from 'vitest';
import { awaitWithin, createWithinWatch } from './await-within.js';
import { createManualClock } from './fixtures/manual-clock.js';

describe('awaitWithin', () => {
  it('returns the work when it finishes in time and leaves no sleeper behind', async () => {
    const clock = createManualClock(0);
    const outcome = await awaitWithin({
      clock,
      idleDeadline: () => 1000,
      wallDeadline: 5000,
      work: async () => 42,
    });
    expect(outcome).toEqual({ status: 'done', value: 42 });
    expect(clock.sleepers()).toEqual([]);
  });

  it('returns a failure of the work as data', async () => {
    const clock = createManualClock(0);
    const outcome = await awaitWithin({
      clock,
      idleDeadline: () => 1000,
      wallDeadline: 5000,
      work: async () => {
        throw new Error('nope');
      },
    });
    expect(outcome.status).toBe('failed');
  });

  it('takes work that throws before returning a promise, or returns a plain value, as any other', async () => {
    const clock = createManualClock(0);
    const deadlines = { clock, idleDeadline: () => 1000, wallDeadline: 5000 };
    const thrown = await awaitWithin({
      ...deadlines,
      work: () => {
        throw new Error('sync');
      },
    });
    expect(thrown).toMatchObject({ status: 'failed', error: { message: 'sync' } });
    const plain = await awaitWithin({ ...deadlines, work: (() => 7) as unknown as () => Promise<number> });
    expect(plain).toEqual({ status: 'done', value: 7 });
    expect(clock.sleepers()).toEqual([]);
  });

  it('gives up on work that never settles at the idle deadline and aborts its signal', async () => {
    const clock = createManualClock(0);
    let seen: AbortSignal | undefined;
    const pending = awaitWithin({
      clock,
      idleDeadline: () => 1000,
      wallDeadline: 5000,
      work: (signal) => {
        seen = signal;
        return new Promise<never>(() => undefined);
      },
    });
    const outcome = await clock.settle(pending);
    expect(outcome).toEqual({ status: 'stopped', reason: 'idle', started: true });
    expect(clock.now()).toBe(1000);
    expect(seen?.aborted).toBe(true);
  });

  it('follows an idle deadline that activity moves, and stops at the wall deadline', async () => {
    const clock = createManualClock(0);
    let idleAt = 1000;
    const pending = awaitWithin({
      clock,
      idleDeadline: () => idleAt,
      wallDeadline: 2500,
      work: () => new Promise<never>(() => undefined),
    });
    await new Promise((r) => setImmediate(r));
    idleAt = 3000;
    const outcome = await clock.settle(pending);
    expect(outcome).toEqual({ status: 'stopped', reason: 'wall-time', started: true });
    expect(clock.now()).toBe(2500);
  });

  it('does not start work whose deadline has already passed, nor work the user already stopped', async () => {
    const clock = createManualClock(10_000);
    let started = 0;
    const work = async () => ++started;
    expect(await awaitWithin({ clock, idleDeadline: () => 9_000, wallDeadline: 20_000, work })).toEqual({
      status: 'stopped',
      reason: 'idle',
      started: false,
    });
    const controller = new AbortController();
    controller.abort();
    expect(
      await awaitWithin({
        clock,
        idleDeadline: () => 20_000,
        wallDeadline: 20_000,
        signal: controller.signal,
        work,
      }),
    ).toEqual({ status: 'stopped', reason: 'user-stop', started: false });
    expect(started).toBe(0);
  });

  it('stops at once when the user aborts during the work', async () => {
    const clock = createManualClock(0);
    const controller = new AbortController();
    const pending = awaitWithin({
      clock,
      idleDeadline: () => 10_000,
      wallDeadline: 10_000,
      signal: controller.signal,
      work: () => new Promise<never>(() => undefined),
    });
    controller.abort();
    expect(await pending).toEqual({ status: 'stopped', reason: 'user-stop', started: true });
    expect(clock.now()).toBe(0);
  });

  it('hands consecutive works the controller the caller keeps, and aborts it only when a work is stopped', async () => {
    const clock = createManualClock(0);
    let kept: AbortController | undefined;
    const controller = () => {
      if (!kept || kept.signal.aborted) kept = new AbortController();
      return kept;
    };
    const seen: AbortSignal[] = [];
    const quick = () =>
      awaitWithin({
        clock,
        idleDeadline: () => 1000,
        wallDeadline: 5000,
        controller,
        work: async (signal) => {
          seen.push(signal);
          return 'done';
        },
      });
    expect(await quick()).toEqual({ status: 'done', value: 'done' });
    expect(await quick()).toEqual({ status: 'done', value: 'done' });
    expect(seen[1]).toBe(seen[0]);
    expect(seen[0]?.aborted).toBe(false);
    const hanging = awaitWithin({
      clock,
      idleDeadline: () => 1000,
      wallDeadline: 5000,
      controller,
      work: (signal) => {
        seen.push(signal);
        return new Promise<never>(() => undefined);
      },
    });
    expect(await clock.settle(hanging)).toEqual({ status: 'stopped', reason: 'idle', started: true });
    expect(seen[2]).toBe(seen[0]);
    expect(seen[2]?.aborted).toBe(true);
    // The next work gets a fresh signal, not the aborted one.
    const after = await awaitWithin({
      clock,
      idleDeadline: () => 5000,
      wallDeadline: 5000,
      controller,
      work: async (signal) => signal.aborted,
    });
    expect(after).toEqual({ status: 'done', value: false });
  });

  describe("with a watch shared by a run's calls", () => {
    it('keeps one timer for consecutive calls, follows the idle deadline they move, and leaves none after close', async () => {
      const clock = createManualClock(0);
      let lastActivity = 0;
      const watch = createWithinWatch({
        clock,
        idleDeadline: () => lastActivity + 1000,
        wallDeadline: 10_000,
      });
      for (let step = 1; step <= 3; step++) {
        const outcome = await awaitWithin({ watch, work: async () => step });
        expect(outcome).toEqual({ status: 'done', value: step });
        clock.advance(600);
        lastActivity = clock.now();
      }
      // One timer stands: the first call's (at 1000) woke with no call waiting and was not renewed; the
      // third call, finding none, armed one at its idle deadline. The second call added none.
      expect(clock.sleepers()).toEqual([2200]);
      let seen: AbortSignal | undefined;
      const hanging = awaitWithin({
        watch,
        work: (signal) => {
          seen = signal;
          return new Promise<never>(() => undefined);
        },
      });
      expect(await clock.settle(hanging)).toEqual({ status: 'stopped', reason: 'idle', started: true });
      // Idle counts from the last activity (at 1800), not from the first call's deadline.
      expect(clock.now()).toBe(2800);
      expect(seen?.aborted).toBe(true);
      watch.close();
      expect(clock.sleepers()).toEqual([]);
    });

    it('stops a call at the wall deadline', async () => {
      const clock = createManualClock(0);
      const watch = createWithinWatch({ clock, idleDeadline: () => clock.now() + 1000, wallDeadline: 2500 });
      const pending = awaitWithin({ watch, work: () => new Promise<never>(() => undefined) });
      expect(await clock.settle(pending)).toEqual({ status: 'stopped', reason: 'wall-time', started: true });
      expect(clock.now()).toBe(2500);
      watch.close();
    });

    it('stops the waiting call when the user aborts, listening once for the whole run', async () => {
      const clock = createManualClock(0);
      const controller = new AbortController();
      const added: string[] = [];
      const original = controller.signal.addEventListener.bind(controller.signal);
      controller.signal.addEventListener = ((type: string, listener: never, options?: never) => {
        added.push(type);
        original(type, listener, options);
      }) as typeof controller.signal.addEventListener;
      const watch = createWithinWatch({
        clock,
        idleDeadline: () => 10_000,
        wallDeadline: 10_000,
        signal: controller.signal,
      });
      expect(await awaitWithin({ watch, work: async () => 1 })).toEqual({ status: 'done', value: 1 });
      expect(await awaitWithin({ watch, work: async () => 2 })).toEqual({ status: 'done', value: 2 });
      let seen: AbortSignal | undefined;
      const pending = awaitWithin({
        watch,
        work: (signal) => {
          seen = signal;
          return new Promise<never>(() => undefined);
        },
      });
      await new Promise((resolve) => setImmediate(resolve));
      controller.abort(new Error('user pressed stop'));
      expect(await pending).toEqual({ status: 'stopped', reason: 'user-stop', started: true });
      expect(seen?.aborted).toBe(true);
      expect(added).toEqual(['abort']);
      // Stopped already: the next call does not start.
      let started = false;
      expect(
        await awaitWithin({
          watch,
          work: async () => {
            started = true;
          },
        }),
      ).toEqual({ status: 'stopped', reason: 'user-stop', started: false });
      expect(started).toBe(false);
      watch.close();
    });

    it('still bounds a call made after the watch was closed', async () => {
      const clock = createManualClock(0);
      const watch = createWithinWatch({ clock, idleDeadline: () => 1000, wallDeadline: 5000 });
      watch.close();
      const pending = awaitWithin({ watch, work: () => new Promise<never>(() => undefined) });
      expect(await clock.settle(pending)).toEqual({ status: 'stopped', reason: 'idle', started: true });
      expect(clock.now()).toBe(1000);
      expect(clock.sleepers()).toEqual([]);
    });
  });
});
