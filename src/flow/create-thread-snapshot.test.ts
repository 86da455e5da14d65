import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { ThreadSnapshot } from '../spec/index.js';
import { decodeSnapshot, encodeSnapshot, type threadSnapshotSchema } from '../store/index.js';
import { createThreadSnapshot } from './create-thread-snapshot.js';

// The snapshot type and its Zod schema are changed together: each must accept what the other describes.
type Parsed = z.infer<typeof threadSnapshotSchema>;
const toSchema = (snapshot: ThreadSnapshot): Parsed => snapshot;
const toType = (parsed: Parsed): ThreadSnapshot => parsed;

describe('thread snapshot with the dialogue state fields', () => {
  it('round-trips preferences, background flows, diffs, confirmations and recovery steps', () => {
    const snapshot: ThreadSnapshot = {
      ...createThreadSnapshot('t1'),
      stack: [
        { id: 'p', name: 'plan_report', status: 'pending', slots: {}, retries: 0, planId: 'p' },
        {
          id: 'a',
          name: 'query',
          status: 'active',
          slots: { table: 'sales' },
          retries: 1,
          planId: 'p',
          metadata: { fallbackFrom: 'x' },
          recovery: ['retry', 'gather-context'],
          confirmed: 'abc',
          returnTo: 'p',
        },
      ],
      pending: { kind: 'confirmation', flowId: 'a', question: 'Go?', level: 'confirmation' },
      preferences: { chart: 'bar' },
      background: [{ id: 'i', name: 'profile', status: 'pending', slots: {}, retries: 0, dependsOn: ['a'] }],
      diffs: [
        {
          turn: 1,
          turnId: 'turn_1',
          changes: [
            { op: 'push', flowId: 'a', name: 'query', planId: 'p' },
            { op: 'slots', flowId: 'a', name: 'query', set: { table: 'sales' }, cleared: [] },
            { op: 'flags', set: { hasPlan: true } },
            { op: 'schedule', flowId: 'i', name: 'profile', dependsOn: ['a'] },
          ],
        },
      ],
    };
    expect(decodeSnapshot('t1', encodeSnapshot(snapshot))).toEqual(snapshot);
    expect(toType(toSchema(snapshot))).toBe(snapshot);
  });

  it('still reads a snapshot written before these fields existed', () => {
    const old = JSON.stringify({ ...createThreadSnapshot('t2') });
    expect(decodeSnapshot('t2', old).preferences).toBeUndefined();
  });

  it('rejects an unknown key in a diff', () => {
    const bad = {
      ...createThreadSnapshot('t3'),
      diffs: [{ turn: 1, turnId: 'x', changes: [{ op: 'push', flowId: 'a', name: 'q', extra: 1 }] }],
    };
    expect(() => decodeSnapshot('t3', JSON.stringify(bad))).toThrow(/not a valid thread snapshot/);
  });
});
