/**
 * How a deadline race begins its work (the run's watch and `runWithinDeadline`): in a later microtask,
 * once the race watches its deadline and stop, and with whatever the work throws, synchronously or not,
 * told as a failure. The work's own promise is followed directly, with no promise of the race's between.
 */
export function beginWork<T>(
  work: () => Promise<T> | T,
  settled: { done(value: T): void; failed(error: unknown): void },
): void {
  queueMicrotask(() => {
    let begun: Promise<T> | T;
    try {
      begun = work();
    } catch (error) {
      settled.failed(error);
      return;
    }
    Promise.resolve(begun).then(
      (value) => settled.done(value),
      (error: unknown) => settled.failed(error),
    );
  });
}
