import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../clock.js';
import { onAbort } from './on-abort.js';
import { startTimer } from './start-timer.js';

const timeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('startTimer on the system clock', () => {
  it('fires timers of one duration once each, in order, and never a cancelled one', async () => {
    const fired: string[] = [];
    const before = timeouts();
    const cancelFirst = startTimer(systemClock, 30, () => fired.push('first'));
    startTimer(systemClock, 30, () => fired.push('second'));
    await wait(5);
    const cancelThird = startTimer(systemClock, 30, () => fired.push('third'));
    startTimer(systemClock, 30, () => fired.push('fourth'));
    // The four share one Node timer.
    expect(timeouts() - before).toBe(1);
    cancelFirst();
    cancelThird();
    cancelThird();
    await wait(80);
    expect(fired).toEqual(['second', 'fourth']);
    expect(timeouts()).toBe(before);
  });

  it('holds the process open with no timer once every timer is cancelled', () => {
    const before = timeouts();
    const cancels = Array.from({ length: 2_000 }, () => startTimer(systemClock, 60_000, () => undefined));
    expect(timeouts() - before).toBe(1);
    // Cancelled out of order, as calls of different lengths end.
    for (let i = cancels.length - 1; i >= 0; i -= 2) cancels[i]?.();
    for (let i = 0; i < cancels.length; i += 2) cancels[i]?.();
    expect(timeouts()).toBe(before);
  });

  it('does not fire a timer early when the one its Node timer was armed for was cancelled', async () => {
    const fired: string[] = [];
    let laterAt = 0;
    const start = performance.now();
    const cancelEarlier = startTimer(systemClock, 30, () => fired.push('earlier'));
    await wait(10);
    startTimer(systemClock, 30, () => {
      fired.push('later');
      laterAt = performance.now();
    });
    cancelEarlier();
    await wait(70);
    expect(fired).toEqual(['later']);
    expect(laterAt - start).toBeGreaterThanOrEqual(39);
  });
});

describe('startTimer under fake timers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires when fake time reaches it, even with performance.now() left real', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fired: string[] = [];
    startTimer(systemClock, 30_000, () => fired.push('first'));
    startTimer(systemClock, 60_000, () => fired.push('second'));
    vi.advanceTimersByTime(29_000);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(fired).toEqual(['first']);
    vi.advanceTimersByTime(30_000);
    expect(fired).toEqual(['first', 'second']);
  });
});

describe('onAbort', () => {
  it('calls every watcher once when the signal aborts, except those that stopped watching, with one listener', () => {
    const controller = new AbortController();
    let listeners = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof add;
    const called: number[] = [];
    const stops = [1, 2, 3].map((n) => onAbort(controller.signal, () => called.push(n)));
    stops[1]?.();
    controller.abort();
    controller.abort();
    expect(called).toEqual([1, 3]);
    expect(listeners).toBe(1);
  });
});
