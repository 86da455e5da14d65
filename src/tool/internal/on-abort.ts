/**
 * Calls `onAbort` when `signal` aborts, until the returned function is called. Every call on one signal
 * shares a single listener on it (kept for the signal's life): a run's tool calls all watch the same
 * batch signal, and Node's `addEventListener`/`removeEventListener` pair per call costs more than a
 * `Set` entry (and a listener object each).
 */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = watchers.get(signal);
  if (callbacks === undefined) {
    const created = new Set<() => void>();
    callbacks = created;
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
  }
  const registered = callbacks;
  registered.add(callback);
  return () => {
    registered.delete(callback);
  };
}
