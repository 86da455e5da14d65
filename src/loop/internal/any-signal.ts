/** A signal that aborts when any of `signals` does (like `AbortSignal.any`, which Node 20.0–20.2 lack). */
export function anySignal(signals: readonly (AbortSignal | undefined)[]): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  const controller = new AbortController();
  for (const signal of present) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      return controller.signal;
    }
  }
  const listeners = present.map((signal) => {
    const listener = () => {
      controller.abort(signal.reason);
      for (const [s, l] of listeners) s.removeEventListener('abort', l);
    };
    signal.addEventListener('abort', listener, { once: true });
    return [signal, listener] as const;
  });
  return controller.signal;
}
