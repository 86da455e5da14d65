import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { onAbort } from './on-abort.js';

// A full collection on demand, to see what a registration keeps alive once it is taken back.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Registers a callback that holds `payload`, takes it back, and returns a weak reference to the payload. */
function registerAndTakeBack(signal: AbortSignal): WeakRef<object> {
  const payload = { text: 'x'.repeat(10_000) };
  const stop = onAbort(signal, () => void payload.text);
  stop();
  return new WeakRef(payload);
}

describe('onAbort', () => {
  it('calls each callback still registered once when the signal aborts', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    onAbort(controller.signal, () => calls.push('a'));
    const stopB = onAbort(controller.signal, () => calls.push('b'));
    onAbort(controller.signal, () => calls.push('c'));
    stopB();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['a', 'c']);
  });

  it('keeps nothing of a callback once it is taken back, the first one on a signal included', async () => {
    const controller = new AbortController();
    // The first registration makes the signal's one listener; the later ones reuse it.
    const first = registerAndTakeBack(controller.signal);
    const later = registerAndTakeBack(controller.signal);
    const stillWatching = onAbort(controller.signal, () => undefined);
    // A weak reference made in this job keeps its target until the job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(first.deref()).toBeUndefined();
    expect(later.deref()).toBeUndefined();
    stillWatching();
  });
});
