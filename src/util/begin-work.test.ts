import { describe, expect, it } from 'vitest';
import { beginWork } from './begin-work.js';

/** Begins `work` and says how it ended, and whether it had begun when `beginWork` returned. */
async function outcomeOf(work: () => unknown) {
  let begun = false;
  const ended = new Promise<{ done?: unknown; failed?: unknown }>((resolve) => {
    beginWork(
      () => {
        begun = true;
        return work();
      },
      { done: (value) => resolve({ done: value }), failed: (error) => resolve({ failed: error }) },
    );
  });
  const begunAtOnce = begun;
  return { begunAtOnce, ...(await ended) };
}

describe('beginWork', () => {
  it('begins the work in a later microtask, never inside the call', async () => {
    const outcome = await outcomeOf(() => 'value');
    expect(outcome).toEqual({ begunAtOnce: false, done: 'value' });
  });

  it("tells the work's value, whether it answers at once or later", async () => {
    expect((await outcomeOf(async () => 7)).done).toBe(7);
    expect((await outcomeOf(() => new Promise((resolve) => setTimeout(() => resolve('late'), 5)))).done).toBe(
      'late',
    );
  });

  it('tells a throw and a rejection alike as a failure', async () => {
    const thrown = new Error('thrown at once');
    const rejected = new Error('rejected');
    expect(
      (
        await outcomeOf(() => {
          throw thrown;
        })
      ).failed,
    ).toBe(thrown);
    expect((await outcomeOf(() => Promise.reject(rejected))).failed).toBe(rejected);
  });

  it('follows a thenable that is not a native promise', async () => {
    // biome-ignore lint/suspicious/noThenProperty: the thenable is what this test is about.
    const thenable = { then: (resolve: (value: string) => void) => resolve('from a thenable') };
    expect((await outcomeOf(() => thenable)).done).toBe('from a thenable');
  });
});
