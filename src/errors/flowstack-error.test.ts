import { describe, expect, it } from 'vitest';
import { FlowstackError, InputError, ModelError, SnapshotError } from './index.js';

describe('FlowstackError.isInstance', () => {
  it('recognizes every flowstack error from the base class and only its own kind from a subclass', () => {
    const input = new InputError({ reason: 'empty', message: 'The message is empty.' });
    const model = new ModelError({ phase: 'skill', message: 'down' });
    expect(FlowstackError.isInstance(input)).toBe(true);
    expect(FlowstackError.isInstance(model)).toBe(true);
    expect(InputError.isInstance(input)).toBe(true);
    expect(InputError.isInstance(model)).toBe(false);
    expect(ModelError.isInstance(model)).toBe(true);
    expect(FlowstackError.isInstance(new Error('plain'))).toBe(false);
    expect(FlowstackError.isInstance({ name: 'InputError' })).toBe(false);
    expect(FlowstackError.isInstance(null)).toBe(false);
  });

  it('serializes typed fields and keeps the cause', () => {
    const cause = new SyntaxError('Unexpected end of JSON input');
    const error = new SnapshotError({
      threadId: 't',
      reason: 'corrupt',
      message: 'Snapshot of t is not JSON.',
      cause,
    });
    expect(error.cause).toBe(cause);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'SnapshotError',
      code: 'snapshot_corrupt',
      message: 'Snapshot of t is not JSON.',
      threadId: 't',
      reason: 'corrupt',
    });
  });
});
