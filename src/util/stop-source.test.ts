import { describe, expect, it } from 'vitest';
import { createStopController } from './stop-source.js';

describe('createStopController', () => {
  it('tells every callback still registered, once, even when one of them throws', () => {
    const stop = createStopController();
    const told: string[] = [];
    stop.onStop(() => {
      throw new Error('a broken listener');
    });
    stop.onStop((reason) => told.push(`first: ${String(reason)}`));
    const takeBack = stop.onStop(() => told.push('taken back'));
    takeBack();
    stop.stop('lease lost');
    stop.stop('again');
    expect(told).toEqual(['first: lease lost']);
    expect(stop).toMatchObject({ stopped: true, reason: 'lease lost' });
  });

  it('calls a callback registered after the stop at once', () => {
    const stop = createStopController();
    stop.stop('done');
    const told: unknown[] = [];
    stop.onStop((reason) => told.push(reason));
    expect(told).toEqual(['done']);
  });
});
