import type { Clock } from '../../util/index.js';

/**
 * A stream that hands out `parts` one per read, optionally `delayMs` apart on `clock`. When `signal`
 * aborts, the stream errors with the signal's reason, as a provider's HTTP stream does.
 */
export function createPartStream<Part>(
  parts: readonly Part[],
  options: { signal: AbortSignal | undefined; clock: Clock; delayMs: number },
): ReadableStream<Part> {
  const { signal, clock, delayMs } = options;
  const iterator = parts[Symbol.iterator]();
  let started = false;
  let onAbort: (() => void) | undefined;
  const stopListening = () => {
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  };
  return new ReadableStream<Part>({
    start(controller) {
      onAbort = () => controller.error(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
    },
    async pull(controller) {
      const next = iterator.next();
      if (next.done === true) {
        stopListening();
        controller.close();
        return;
      }
      if (delayMs > 0 && started) await clock.sleep(delayMs, signal);
      started = true;
      if (signal?.aborted !== true) controller.enqueue(next.value);
    },
    cancel: stopListening,
  });
}
