// The turn runner's stop (ADR 0081): a stop message while the thread's turn runs goes to the agent; when the
// agent cannot take it (its turn has not started, so the lease refuses the message) the turn is cancelled.
import { describe, expect, it } from 'vitest';
import type { TurnResult } from '../agent/index.js';
import { ThreadBusyError } from '../errors/index.js';
import { systemClock } from '../util/index.js';
import { createTurnRunner } from './turn-runner.js';

const resultOf = (reply: string) => ({ reply }) as TurnResult;

describe('createTurnRunner', () => {
  it('answers a stop with the agent’s answer while the turn runs, and refuses any other message', async () => {
    const runner = createTurnRunner({ clock: systemClock });
    let finish: (result: TurnResult) => void = () => undefined;
    const turn = runner.run('t', 'alice', () => new Promise<TurnResult>((resolve) => (finish = resolve)));
    await expect(runner.run('t', 'alice', async () => resultOf('other'))).rejects.toThrow(ThreadBusyError);
    const stop = runner.run('t', 'alice', async () => resultOf('stopped'), { stop: true });
    expect(await stop).toEqual(resultOf('stopped'));
    finish(resultOf('stopped'));
    await turn;
  });

  it('cancels the running turn when the agent refuses the stop as busy, and answers with that turn’s result', async () => {
    const runner = createTurnRunner({ clock: systemClock });
    const turn = runner.run(
      't',
      'alice',
      (signal) =>
        new Promise<TurnResult>((resolve) =>
          signal.addEventListener('abort', () => resolve(resultOf('Stopped as you asked.'))),
        ),
    );
    const stop = runner.run(
      't',
      'alice',
      async () => {
        throw new ThreadBusyError({ threadId: 't' });
      },
      { stop: true },
    );
    expect(await stop).toEqual(resultOf('Stopped as you asked.'));
    expect(await turn).toEqual(resultOf('Stopped as you asked.'));
  });
});
