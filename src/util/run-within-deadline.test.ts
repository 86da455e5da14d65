import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { type Clock, systemClock } from './clock.js';
import { runWithinDeadline } from './run-within-deadline.js';
import { createStopController, type StopSource } from './stop-source.js';

// A full collection on demand, to see what a finished call leaves reachable from a long-lived signal.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A clock that moves only when the test moves it; `sleepers` lists the deadlines still waited for. */
function createTestClock(start = 0) {
  let now = start;
  const waiting = new Set<{ at: number; wake: () => void }>();
  const clock: Clock = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const sleeper = { at: now + ms, wake: resolve };
        waiting.add(sleeper);
        signal?.addEventListener('abort', () => {
          waiting.delete(sleeper);
          reject(signal.reason);
        });
      }),
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return {
    clock,
    sleepers: () => [...waiting].map((s) => s.at),
    async advanceTo(at: number) {
      await tick();
      now = at;
      for (const sleeper of [...waiting].filter((s) => s.at <= at)) {
        waiting.delete(sleeper);
        sleeper.wake();
      }
      await tick();
    },
  };
}

/** A signal that counts the abort listeners it holds. */
function countedSignal() {
  const controller = new AbortController();
  const listening = { count: 0 };
  const { signal } = controller;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    listening.count++;
    add(...args);
  }) as typeof add;
  signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    listening.count--;
    remove(...args);
  }) as typeof remove;
  return { controller, signal, listening };
}

const never = () => new Promise<never>(() => undefined);

describe('runWithinDeadline', () => {
  it('returns what the work gives in time, leaving no timer behind and one listener per signal however many calls', async () => {
    const { clock, sleepers } = createTestClock();
    const { signal, listening } = countedSignal();
    for (const value of [42, 43, 44]) {
      const outcome = await runWithinDeadline({ clock, deadline: 1_000, signal, work: async () => value });
      expect(outcome).toEqual({ status: 'done', value });
    }
    expect(sleepers()).toEqual([]);
    // The signal's one shared listener (docs/decisions/0064), not one per call.
    expect(listening.count).toBe(1);
  });

  it('returns a failure of the work as data, whether it throws at once or later', async () => {
    const { clock } = createTestClock();
    const thrown = await runWithinDeadline({
      clock,
      deadline: 1_000,
      work: () => {
        throw new Error('at once');
      },
    });
    const rejected = await runWithinDeadline({ clock, deadline: 1_000, work: () => Promise.reject('later') });
    expect(thrown).toMatchObject({ status: 'failed', error: { message: 'at once' } });
    expect(rejected).toEqual({ status: 'failed', error: 'later' });
  });

  it('gives up at the deadline, aborts the work with the reason given, and discards what comes later', async () => {
    const test = createTestClock();
    let seen: AbortSignal | undefined;
    let finish: (value: string) => void = () => undefined;
    const pending = runWithinDeadline({
      clock: test.clock,
      deadline: 5_000,
      deadlineReason: () => new Error('timeout'),
      work: ({ signal }) => {
        seen = signal;
        return new Promise<string>((resolve) => {
          finish = resolve;
        });
      },
    });
    await test.advanceTo(4_999);
    expect(seen?.aborted).toBe(false);
    await test.advanceTo(5_000);
    expect(await pending).toEqual({ status: 'deadline', started: true });
    expect(seen?.reason).toEqual(new Error('timeout'));
    finish('too late');
    expect(test.sleepers()).toEqual([]);
  });

  it('follows a deadline that moves later while the work runs', async () => {
    const test = createTestClock();
    let idleAt = 1_000;
    const pending = runWithinDeadline({
      clock: test.clock,
      deadline: () => Math.min(idleAt, 2_500),
      work: never,
    });
    idleAt = 3_000;
    await test.advanceTo(1_000);
    expect(test.sleepers()).toEqual([2_500]);
    await test.advanceTo(2_500);
    expect(await pending).toEqual({ status: 'deadline', started: true });
  });

  it("stops at once when the caller's signal aborts, handing the work the signal's reason", async () => {
    const { clock } = createTestClock();
    const { controller, signal, listening } = countedSignal();
    let seen: AbortSignal | undefined;
    const pending = runWithinDeadline({
      clock,
      deadline: 10_000,
      signal,
      work: ({ signal: work }) => {
        seen = work;
        return never();
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('user pressed stop'));
    expect(await pending).toEqual({ status: 'stopped', started: true });
    expect(seen?.reason).toEqual(new Error('user pressed stop'));
    expect(listening.count).toBe(1);
  });

  it('stops when a stop told by callback comes, and takes its callback back otherwise', async () => {
    const { clock } = createTestClock();
    const stop = createStopController();
    const done = await runWithinDeadline({ clock, deadline: 10_000, stop, work: async () => 'first' });
    expect(done).toEqual({ status: 'done', value: 'first' });
    let seen: AbortSignal | undefined;
    const pending = runWithinDeadline({
      clock,
      deadline: 10_000,
      stop,
      stopReason: () => new Error('cancelled'),
      work: ({ signal }) => {
        seen = signal;
        return never();
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    stop.stop('lease lost');
    expect(await pending).toEqual({ status: 'stopped', started: true });
    expect(seen?.reason).toEqual(new Error('cancelled'));
  });

  it('does not begin work the caller stops before it could begin', async () => {
    const { clock } = createTestClock();
    const controller = new AbortController();
    let begun = false;
    const pending = runWithinDeadline({
      clock,
      deadline: 10_000,
      signal: controller.signal,
      work: async () => {
        begun = true;
      },
    });
    controller.abort();
    expect(await pending).toEqual({ status: 'stopped', started: true });
    expect(begun).toBe(false);
  });

  it('hands the work a signal that reads as aborted even when it is first read after the deadline', async () => {
    const test = createTestClock();
    let abort: { readonly signal: AbortSignal } | undefined;
    const pending = runWithinDeadline({
      clock: test.clock,
      deadline: 100,
      deadlineReason: () => new Error('timeout'),
      work: (handed) => {
        abort = handed;
        return never();
      },
    });
    await test.advanceTo(100);
    expect(await pending).toEqual({ status: 'deadline', started: true });
    expect(abort?.signal.aborted).toBe(true);
    expect(abort?.signal.reason).toEqual(new Error('timeout'));
  });

  it("aborts the caller's own controller when it is stopped, and leaves it alone when the work is done", async () => {
    const test = createTestClock();
    const controller = new AbortController();
    const done = await runWithinDeadline({
      clock: test.clock,
      deadline: 100,
      controller,
      work: async () => 1,
    });
    expect(done).toEqual({ status: 'done', value: 1 });
    expect(controller.signal.aborted).toBe(false);
    const pending = runWithinDeadline({ clock: test.clock, deadline: 100, controller, work: never });
    await test.advanceTo(100);
    expect(await pending).toEqual({ status: 'deadline', started: true });
    expect(controller.signal.aborted).toBe(true);
  });

  it('does not begin work the caller stopped already, nor work whose deadline has passed', async () => {
    const { clock } = createTestClock(10_000);
    let begun = 0;
    const work = async () => ++begun;
    expect(await runWithinDeadline({ clock, deadline: 9_000, work })).toEqual({
      status: 'deadline',
      started: false,
    });
    expect(await runWithinDeadline({ clock, deadline: 20_000, signal: AbortSignal.abort(), work })).toEqual({
      status: 'stopped',
      started: false,
    });
    expect(begun).toBe(0);
  });

  it('on the system clock, leaves no timer running once the work is done', async () => {
    const timeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timeouts();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        runWithinDeadline({ clock: systemClock, deadline: systemClock.now() + 60_000, work: async () => i }),
      ),
    );
    expect(outcomes.every((outcome) => outcome.status === 'done')).toBe(true);
    expect(timeouts()).toBe(before);
  });

  it('keeps nothing of a finished call alive from the long-lived signal it watched, the first call included', async () => {
    const { clock } = createTestClock();
    const controller = new AbortController();
    const finishedCall = async () => {
      const payload = { text: 'x'.repeat(10_000) };
      await runWithinDeadline({
        clock,
        deadline: 1_000,
        signal: controller.signal,
        // The call's outcome holds the payload, as a tool's result holds what the tool returned.
        work: async () => payload,
      });
      return new WeakRef(payload);
    };
    const first = await finishedCall();
    const later = await finishedCall();
    // A weak reference made in this job keeps its target until the job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(first.deref()).toBeUndefined();
    expect(later.deref()).toBeUndefined();
  });

  it('rejects, and leaves no callback behind, when its clock throws while the race is set up', async () => {
    let reads = 0;
    const clock: Clock = {
      // The first reading (is the deadline already past?) works; the race's own reading throws.
      now: () => {
        if (++reads > 1) throw new Error('clock broke');
        return 0;
      },
      sleep: () => new Promise<void>(() => undefined),
    };
    const held = new Set<(reason: unknown) => void>();
    const stop: StopSource = {
      stopped: false,
      reason: undefined,
      onStop: (callback) => {
        held.add(callback);
        return () => held.delete(callback);
      },
    };
    let begun = false;
    const outcome = runWithinDeadline({
      clock,
      deadline: 1_000,
      stop,
      work: async () => {
        begun = true;
      },
    });
    await expect(outcome).rejects.toThrow('clock broke');
    expect(begun).toBe(false);
    expect(held.size).toBe(0);
  });
});
