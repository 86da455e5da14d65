/**
 * A cancellable timer on an injected clock: the clock's own `setTimer` when it has one, else `sleep`
 * with a signal. Returns the cancel function.
 *
 * On the system clock, timers of one duration share one Node timer: a tool's timeout is started and
 * cancelled at every call and almost never fires, and calls of one duration end in about the order they
 * started, so a queue per duration (due times in start order, on the monotonic `performance.now()`)
 * with a single `setTimeout` armed for its first live entry stands in for a timer per call. A queue whose
 * entries are all gone keeps its timer armed but unreferenced, so nothing keeps the process alive, and
 * the next call takes the timer back with `ref()`. Kept for its cost, docs/decisions/0064.
 */

import { type Clock, systemClock } from '../clock.js';

const cancelled = new Error('timer cancelled');

export function startTimer(clock: Clock, ms: number, callback: () => void): () => void {
  if (clock === systemClock) return queueTimer(ms, callback);
  if (clock.setTimer) return clock.setTimer(ms, callback);
  const controller = new AbortController();
  clock.sleep(ms, controller.signal).then(callback, () => undefined);
  return () => controller.abort(cancelled);
}

interface Entry {
  at: number;
  callback: (() => void) | undefined;
}

interface Queue {
  ms: number;
  entries: Entry[];
  /** Index of the first entry not yet fired or skipped. */
  head: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires. */
  armedAt: number;
  /** The `setTimeout` and `clearTimeout` the timer was armed with. */
  armedWith: typeof setTimeout;
  clearWith: typeof clearTimeout;
}

const queues = new Map<number, Queue>();

function queueTimer(ms: number, callback: () => void): () => void {
  let queue = queues.get(ms);
  if (queue === undefined) {
    queue = {
      ms,
      entries: [],
      head: 0,
      timer: undefined,
      armedAt: 0,
      armedWith: setTimeout,
      clearWith: clearTimeout,
    };
    queues.set(ms, queue);
  }
  const entry: Entry = { at: performance.now() + Math.max(0, ms), callback };
  queue.entries.push(entry);
  // The first live entry takes back the idle timer, unless `setTimeout` was replaced since it was armed
  // (fake timers in a test): then that timer is dropped and one is armed with the current functions.
  if (queue.timer !== undefined && queue.entries.length === 1) {
    if (queue.armedWith === setTimeout) queue.timer.ref();
    else {
      queue.clearWith(queue.timer);
      queue.timer = undefined;
    }
  }
  if (queue.timer === undefined) arm(queue, entry.at);
  const owner = queue;
  return () => {
    if (entry.callback === undefined) return;
    entry.callback = undefined;
    skipCancelled(owner);
  };
}

/** Drops cancelled entries at the front; with none left, the timer goes too. */
function skipCancelled(queue: Queue): void {
  const { entries } = queue;
  while (queue.head < entries.length && (entries[queue.head] as Entry).callback === undefined) queue.head++;
  if (queue.head === entries.length) {
    entries.length = 0;
    queue.head = 0;
    // The timer stays armed but no longer keeps the process alive: the next call, usually a moment away,
    // takes it back instead of clearing one Node timer and setting another. Fired with nothing due, it
    // is simply not armed again.
    queue.timer?.unref();
  } else if (queue.head > 1024 && queue.head * 2 > entries.length) {
    entries.splice(0, queue.head);
    queue.head = 0;
  }
}

function arm(queue: Queue, at: number): void {
  queue.armedAt = at;
  queue.armedWith = setTimeout;
  queue.clearWith = clearTimeout;
  queue.timer = setTimeout(() => fire(queue), Math.max(0, Math.ceil(at - performance.now())));
}

function fire(queue: Queue): void {
  queue.timer = undefined;
  // The Node timer is the authority that its entry's time has come, as it was for a timer per call: under
  // fake timers that fake `setTimeout` but not `performance.now()`, the entry it was armed for still fires.
  const now = Math.max(performance.now(), queue.armedAt);
  const { entries } = queue;
  const due: (() => void)[] = [];
  while (queue.head < entries.length) {
    const entry = entries[queue.head] as Entry;
    if (entry.callback !== undefined && entry.at > now) break;
    if (entry.callback !== undefined) due.push(entry.callback);
    entry.callback = undefined;
    queue.head++;
  }
  skipCancelled(queue);
  const next = entries[queue.head];
  if (next !== undefined && queue.timer === undefined) arm(queue, next.at);
  for (const callback of due) callback();
}
