/**
 * A signal that aborts when any of `signals` does (like `AbortSignal.any`, which Node 20.0–20.2 lack),
 * and `release` to take its listeners off the others once the work it guards is over: a turn's signal
 * lives as long as the turn, and a listener left on it per step would pile up with the steps.
 */
export function linkSignals(signals: readonly (AbortSignal | undefined)[]): {
  signal: AbortSignal;
  release: () => void;
} {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  // One signal needs no link: it is its own "any" (no controller, no listener to release).
  if (present.length === 1) return { signal: present[0] as AbortSignal, release: () => {} };
  const controller = new AbortController();
  for (const signal of present) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      return { signal: controller.signal, release: () => {} };
    }
  }
  const listeners = present.map((signal) => {
    const listener = () => {
      controller.abort(signal.reason);
      release();
    };
    signal.addEventListener('abort', listener, { once: true });
    return [signal, listener] as const;
  });
  const release = () => {
    for (const [s, l] of listeners) s.removeEventListener('abort', l);
  };
  return { signal: controller.signal, release };
}
