/**
 * What a child process counts while a scenario runs: time spent inside tools and inside the mock
 * model, and heap peaks. Tools and mocks report here; nothing here runs unless a scenario asks.
 */
import { performance } from 'node:perf_hooks';

export interface Meter {
  /** Wall time inside tool bodies (including their simulated latency). */
  toolMs: number;
  /** Wall time inside the mock model's own code. */
  modelMs: number;
  toolCalls: number;
  modelCalls: number;
  /** Simulated latency of every tool call. */
  toolDelayMs: number;
  /** When set, `sampleHeap` is called at every tool and model call. */
  sampling: boolean;
  heapPeak: number;
  /** Called by `sampleHeap` before it reads the heap (the sessions scenario drops the mocks' call logs there). */
  onSample: (() => void) | undefined;
  /** Start and end of every tool call, when `recordSpans` is set. */
  recordSpans: boolean;
  spans: { start: number; end: number }[];
  /** Awaited at the start of every tool call (gates, crash triggers, first-step clocks). */
  beforeTool: ((toolName: string, index: number) => Promise<void> | void) | undefined;
}

export const meter: Meter = {
  toolMs: 0,
  modelMs: 0,
  toolCalls: 0,
  modelCalls: 0,
  toolDelayMs: 0,
  sampling: false,
  heapPeak: 0,
  onSample: undefined,
  recordSpans: false,
  spans: [],
  beforeTool: undefined,
};

export function resetCounters(): void {
  meter.toolMs = 0;
  meter.modelMs = 0;
  meter.toolCalls = 0;
  meter.modelCalls = 0;
}

export function sampleHeap(): void {
  meter.onSample?.();
  const used = process.memoryUsage().heapUsed;
  if (used > meter.heapPeak) meter.heapPeak = used;
}

/** Times the mock model's own work (`respond` is synchronous in every mock here). */
export function timeModel<T>(respond: () => T): T {
  const start = performance.now();
  meter.modelCalls++;
  if (meter.sampling) sampleHeap();
  try {
    return respond();
  } finally {
    meter.modelMs += performance.now() - start;
  }
}

export function now(): number {
  return performance.now();
}

/** A full collection, twice, so that the heap reading is stable (`--expose-gc` is always on in children). */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('Run the child with --expose-gc.');
  gc();
  gc();
}

/** The most tool calls that ran at the same time, from the recorded spans. */
export function maxConcurrency(spans: readonly { start: number; end: number }[]): number {
  const events = spans.flatMap((s) => [
    { t: s.start, d: 1 },
    { t: s.end, d: -1 },
  ]);
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  let running = 0;
  let most = 0;
  for (const e of events) {
    running += e.d;
    most = Math.max(most, running);
  }
  return most;
}

/**
 * Waits, after a warm-up, until the process's background threads are quiet: V8 compiles hot functions on a
 * thread of its own, and a compile still running when the measurement starts is counted in the process's
 * CPU time (`process.cpuUsage` covers every thread; Node 20 has no per-thread figure). The main thread
 * idles in slices of 50 ms until a slice costs the process under 2 ms of CPU, at most `maxMs` in all.
 * Returns how long it waited. Every framework gets the same wait.
 */
export async function settleBackgroundWork(maxMs = 1_000): Promise<number> {
  const start = now();
  while (now() - start < maxMs) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < 2) break;
  }
  return now() - start;
}
