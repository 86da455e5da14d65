import { describe, expect, it } from 'vitest';
import { createStopController } from '../util/index.js';
import { awaitWithin } from './await-within.js';
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

  it('gives each work its own signal, aborted only when that work is stopped', async () => {
    const clock = createManualClock(0);
    const seen: AbortSignal[] = [];
    const deadlines = { clock, idleDeadline: () => 1000, wallDeadline: 5000 };
    const quick = () =>
      awaitWithin({
        ...deadlines,
        work: async (signal) => {
          seen.push(signal);
          return 'done';
        },
      });
    expect(await quick()).toEqual({ status: 'done', value: 'done' });
    expect(await quick()).toEqual({ status: 'done', value: 'done' });
    expect(seen[1]).not.toBe(seen[0]);
    expect(seen.map((signal) => signal.aborted)).toEqual([false, false]);
    const hanging = awaitWithin({
      ...deadlines,
      work: (signal) => {
        seen.push(signal);
        return new Promise<never>(() => undefined);
      },
    });
    expect(await clock.settle(hanging)).toEqual({ status: 'stopped', reason: 'idle', started: true });
    expect(seen[2]?.aborted).toBe(true);
    expect(seen[2]?.reason).toEqual(new Error('stopped: idle'));
  });

  describe("over a run's consecutive calls", () => {
    it('follows the idle deadline the calls move, and leaves no timer once each call is over', async () => {
      const clock = createManualClock(0);
      let lastActivity = 0;
      const deadlines = { clock, idleDeadline: () => lastActivity + 1000, wallDeadline: 10_000 };
      for (let step = 1; step <= 3; step++) {
        const outcome = await awaitWithin({ ...deadlines, work: async () => step });
        expect(outcome).toEqual({ status: 'done', value: step });
        expect(clock.sleepers()).toEqual([]);
        clock.advance(600);
        lastActivity = clock.now();
      }
      let seen: AbortSignal | undefined;
      const hanging = awaitWithin({
        ...deadlines,
        work: (signal) => {
          seen = signal;
          return new Promise<never>(() => undefined);
        },
      });
      expect(await clock.settle(hanging)).toEqual({ status: 'stopped', reason: 'idle', started: true });
      // Idle counts from the last activity (at 1800), not from the first call's deadline.
      expect(clock.now()).toBe(2800);
      expect(seen?.aborted).toBe(true);
      expect(clock.sleepers()).toEqual([]);
    });

    it('stops a call at the wall deadline', async () => {
      const clock = createManualClock(0);
      const pending = awaitWithin({
        clock,
        idleDeadline: () => clock.now() + 1000,
        wallDeadline: 2500,
        work: () => new Promise<never>(() => undefined),
      });
      expect(await clock.settle(pending)).toEqual({ status: 'stopped', reason: 'wall-time', started: true });
      expect(clock.now()).toBe(2500);
    });

    it("stops the waiting call when the user aborts, with one listener on the run's signal for all its calls", async () => {
      const clock = createManualClock(0);
      const controller = new AbortController();
      let listening = 0;
      const { signal } = controller;
      const add = signal.addEventListener.bind(signal);
      const remove = signal.removeEventListener.bind(signal);
      signal.addEventListener = ((...args: Parameters<typeof add>) => {
        listening++;
        add(...args);
      }) as typeof add;
      signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
        listening--;
        remove(...args);
      }) as typeof remove;
      const deadlines = { clock, idleDeadline: () => 10_000, wallDeadline: 10_000, signal };
      expect(await awaitWithin({ ...deadlines, work: async () => 1 })).toEqual({ status: 'done', value: 1 });
      expect(await awaitWithin({ ...deadlines, work: async () => 2 })).toEqual({ status: 'done', value: 2 });
      // The signal's one shared listener (docs/decisions/0064), not one per call.
      expect(listening).toBe(1);
      let seen: AbortSignal | undefined;
      const pending = awaitWithin({
        ...deadlines,
        work: (work) => {
          seen = work;
          return new Promise<never>(() => undefined);
        },
      });
      await new Promise((resolve) => setImmediate(resolve));
      controller.abort(new Error('user pressed stop'));
      expect(await pending).toEqual({ status: 'stopped', reason: 'user-stop', started: true });
      expect(seen?.aborted).toBe(true);
      expect(seen?.reason).toEqual(new Error('user pressed stop'));
      expect(listening).toBe(1);
      // Stopped already: the next call does not start.
      let started = false;
      expect(
        await awaitWithin({
          ...deadlines,
          work: async () => {
            started = true;
          },
        }),
      ).toEqual({ status: 'stopped', reason: 'user-stop', started: false });
      expect(started).toBe(false);
    });

    it('takes a failure of work the user stopped as the stop', async () => {
      const clock = createManualClock(0);
      const stop = createStopController();
      const pending = awaitWithin({
        clock,
        idleDeadline: () => 10_000,
        wallDeadline: 10_000,
        stop,
        work: (signal) =>
          new Promise<never>((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason)),
          ),
      });
      stop.stop(new Error('lease lost'));
      expect(await pending).toEqual({ status: 'stopped', reason: 'user-stop', started: true });
    });
  });
});
