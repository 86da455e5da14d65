import { describe, expect, it } from 'vitest';
import { createStopController } from '../util/index.js';
import { awaitWithin } from './await-within.js';
import { createManualClock } from './fixtures/manual-clock.js';
import { createRunWatch } from './run-watch.js';

const never = () => new Promise<never>(() => undefined);

describe('createRunWatch', () => {
  it('keeps one timer for consecutive calls and takes it back when closed', async () => {
    const clock = createManualClock(0);
    const watch = createRunWatch({ clock, idleDeadline: () => 1_000, wallDeadline: 5_000 });
    const controller = new AbortController();
    for (const value of [1, 2, 3])
      expect(await watch.wait(controller, async () => value)).toEqual({ status: 'done', value });
    expect(clock.sleepers()).toEqual([1_000]);
    watch.close();
    expect(clock.sleepers()).toEqual([]);
  });

  it('answers as awaitWithin does when a call outlives the idle limit, and aborts the controller', async () => {
    const limits = () => ({ idleDeadline: () => 1_000, wallDeadline: 5_000 });
    const watched = createManualClock(0);
    const watch = createRunWatch({ clock: watched, ...limits() });
    const controller = new AbortController();
    const outcome = await watched.settle(watch.wait(controller, never));
    const plain = createManualClock(0);
    const alone = await plain.settle(awaitWithin({ clock: plain, ...limits(), work: never }));
    expect(outcome).toEqual({ status: 'stopped', reason: 'idle', started: true });
    expect(outcome).toEqual(alone);
    expect(controller.signal.reason).toEqual(new Error('stopped: idle'));
    watch.close();
  });

  it('follows an idle deadline that activity moved later, and stops at the wall-clock limit', async () => {
    const clock = createManualClock(0);
    let lastActivityAt = 0;
    const watch = createRunWatch({ clock, idleDeadline: () => lastActivityAt + 1_000, wallDeadline: 2_500 });
    // The first call arms the timer at 1,000; activity at 900 moves the idle deadline to 1,900.
    const first = watch.wait(new AbortController(), async () => {
      await clock.sleep(900);
      lastActivityAt = clock.now();
      return 'first';
    });
    expect(await clock.settle(first)).toEqual({ status: 'done', value: 'first' });
    const second = watch.wait(new AbortController(), never);
    expect(await clock.settle(second)).toEqual({ status: 'stopped', reason: 'idle', started: true });
    expect(clock.now()).toBe(1_900);
    lastActivityAt = clock.now();
    const third = watch.wait(new AbortController(), never);
    expect(await clock.settle(third)).toEqual({ status: 'stopped', reason: 'wall-time', started: true });
    expect(clock.now()).toBe(2_500);
    // Past the limit, a call is not begun.
    let started = false;
    const fourth = await watch.wait(new AbortController(), async () => {
      started = true;
    });
    expect(fourth).toEqual({ status: 'stopped', reason: 'wall-time', started: false });
    expect(started).toBe(false);
    watch.close();
  });

  it("stops the waiting call when the user aborts, hands the work the user's reason, and begins no more", async () => {
    const clock = createManualClock(0);
    const user = new AbortController();
    const watch = createRunWatch({
      clock,
      idleDeadline: () => 10_000,
      wallDeadline: 10_000,
      signal: user.signal,
    });
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const pending = watch.wait(controller, (signal) => {
      seen = signal;
      return never();
    });
    await new Promise((resolve) => setImmediate(resolve));
    user.abort(new Error('user pressed stop'));
    expect(await pending).toEqual({ status: 'stopped', reason: 'user-stop', started: true });
    expect(seen?.reason).toEqual(new Error('user pressed stop'));
    expect(await watch.wait(new AbortController(), async () => 1)).toEqual({
      status: 'stopped',
      reason: 'user-stop',
      started: false,
    });
    watch.close();
  });

  it('stops on a stop told by callback (a lost lease) as on the signal', async () => {
    const clock = createManualClock(0);
    const stop = createStopController();
    const watch = createRunWatch({ clock, idleDeadline: () => 10_000, wallDeadline: 10_000, stop });
    const pending = watch.wait(new AbortController(), never);
    await new Promise((resolve) => setImmediate(resolve));
    stop.stop(new Error('lease lost'));
    expect(await pending).toEqual({ status: 'stopped', reason: 'user-stop', started: true });
    watch.close();
  });

  it('takes work that fails because the user stopped it as stopped, not failed', async () => {
    const clock = createManualClock(0);
    const user = new AbortController();
    const watch = createRunWatch({
      clock,
      idleDeadline: () => 10_000,
      wallDeadline: 10_000,
      signal: user.signal,
    });
    const pending = watch.wait(
      new AbortController(),
      () =>
        new Promise<never>((_, reject) => {
          user.signal.addEventListener('abort', () => reject(new Error('aborted by the tool')));
        }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    user.abort();
    expect(await pending).toMatchObject({ status: 'stopped', reason: 'user-stop', started: true });
    watch.close();
  });
});
