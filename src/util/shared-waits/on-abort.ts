/**
 * Calls `onAbort` when `signal` aborts, until the returned function is called. Every call on one signal
 * shares a single listener on it (kept for the signal's life): a run's tool calls all watch the same
 * batch signal, and a listener added and removed per call costs more than a `Set` entry. Kept for its
 * cost, docs/decisions/0064.
 */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  const registered = watchers.get(signal) ?? watch(signal);
  registered.add(callback);
  return () => {
    registered.delete(callback);
  };
}

/**
 * The signal's one listener, made in a function of its own: a closure keeps the whole scope it was made in,
 * and the listener, made beside the first call's callback, kept that call (its state, its tool's input and
 * result) alive for as long as the signal lived — a skill run's whole life.
 */
function watch(signal: AbortSignal): Set<() => void> {
  const created = new Set<() => void>();
  watchers.set(signal, created);
  signal.addEventListener(
    'abort',
    () => {
      const due = [...created];
      created.clear();
      for (const call of due) call();
    },
    { once: true },
  );
  return created;
}
