import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { SnapshotError } from '../errors/index.js';
import { currentSnapshotVersion, type ThreadSnapshot } from '../spec/index.js';
import { decodeSnapshot } from './decode-snapshot.js';
import { encodeSnapshot } from './encode-snapshot.js';
import { looksLikeSnapshot } from './internal/snapshot-shape-check.js';
import { type SnapshotMigration, snapshotMigrations } from './snapshot-migrations.js';
import { threadSnapshotSchema } from './thread-snapshot-schema.js';

function snapshot(overrides: Partial<ThreadSnapshot> = {}): ThreadSnapshot {
  return {
    schemaVersion: 1,
    threadId: 't1',
    principal: 'alice',
    stack: [
      { id: 'flow_1', name: 'plan', status: 'pending', slots: {}, planId: 'plan_1', retries: 0 },
      {
        id: 'flow_2',
        name: 'send',
        status: 'active',
        slots: { to: 'bob', n: [1, 2] },
        retries: 1,
        result: null,
      },
    ],
    flags: { keepGoing: true, hasIssues: false, hasPlan: true, naturalBirth: false },
    scratchpad: [{ key: 'k', text: 'Grüße 👋', source: 'flow_1', time: 5 }],
    pending: { kind: 'slot', flowId: 'flow_2', slot: 'to', question: 'To whom?', level: 'specific' },
    turnCount: 3,
    historySeq: 12,
    activeTurnId: 'turn_3',
    extensions: { plan: { items: [{ id: 'a', status: 'done' }] } },
    ...overrides,
  };
}

function decodeError(data: string, options?: Parameters<typeof decodeSnapshot>[2]): SnapshotError {
  try {
    decodeSnapshot('t1', data, options);
  } catch (error) {
    if (error instanceof SnapshotError) return error;
    throw error;
  }
  throw new Error('decodeSnapshot did not fail');
}

describe('snapshot codec', () => {
  it('has a schema that matches the ThreadSnapshot type exactly', () => {
    expectTypeOf<z.output<typeof threadSnapshotSchema>>().toEqualTypeOf<ThreadSnapshot>();
  });

  it('round-trips a snapshot', () => {
    const original = snapshot();
    const text = encodeSnapshot(original);
    expect(JSON.parse(text)).toEqual(original);
    expect(decodeSnapshot('t1', text)).toEqual(original);
  });

  it('round-trips a minimal snapshot without optional fields', () => {
    const minimal = snapshot({
      principal: undefined,
      pending: undefined,
      activeTurnId: undefined,
      stack: [],
    });
    const decoded = decodeSnapshot('t1', encodeSnapshot(minimal));
    expect(decoded).toEqual(JSON.parse(JSON.stringify(minimal)));
    expect('pending' in decoded).toBe(false);
  });

  it('raises corrupt for text that is not JSON', () => {
    const error = decodeError('{"schemaVersion": 1, ');
    expect(error).toMatchObject({ reason: 'corrupt', code: 'snapshot_corrupt', threadId: 't1' });
    expect(error.message).toContain("thread 't1' is not valid JSON");
  });

  it('raises future_version and says which version a newer flowstack wrote', () => {
    const error = decodeError(JSON.stringify({ ...snapshot(), schemaVersion: currentSnapshotVersion + 1 }));
    expect(error.reason).toBe('future_version');
    expect(error.message).toContain(`schemaVersion ${currentSnapshotVersion + 1}`);
    expect(error.message).toContain(`up to version ${currentSnapshotVersion}`);
    expect(error.message).toContain('a newer flowstack wrote it');
  });

  it('raises invalid_shape listing every issue', () => {
    const broken = { ...snapshot(), turnCount: -1, flags: { keepGoing: 'yes' }, extra: true };
    const error = decodeError(JSON.stringify(broken));
    expect(error.reason).toBe('invalid_shape');
    expect(error.message).toContain('- turnCount:');
    expect(error.message).toContain('- flags.keepGoing:');
    expect(error.message).toContain('- flags.hasIssues:');
    expect(error.message).toContain('extra');
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"snapshot"'],
    ['null', 'null'],
    ['no schemaVersion', JSON.stringify({ ...snapshot(), schemaVersion: undefined })],
    ['a fractional schemaVersion', JSON.stringify({ ...snapshot(), schemaVersion: 0.5 })],
  ])('raises invalid_shape for %s', (_label, data) => {
    expect(decodeError(data).reason).toBe('invalid_shape');
  });

  it("raises invalid_shape for another thread's snapshot", () => {
    const error = decodeError(encodeSnapshot(snapshot({ threadId: 't2' })));
    expect(error.reason).toBe('invalid_shape');
    expect(error.message).toContain("expected 't1', found 't2'");
  });

  it('ships an empty migration table while version 1 is the only version', () => {
    expect(snapshotMigrations).toEqual([]);
    expect(decodeError(JSON.stringify({ ...snapshot(), schemaVersion: 0 })).message).toContain(
      'no migration leads from it',
    );
  });

  describe('with an injected v0 → v1 migration', () => {
    // Version 0 is made up for the test: it called the stack `flows` and had no flags, scratchpad or seq.
    const v0 = { schemaVersion: 0, threadId: 't1', flows: snapshot().stack, turns: 2 };
    const migrations: SnapshotMigration[] = [
      {
        from: 0,
        to: 1,
        migrate: ({ flows, turns, ...rest }) => ({
          ...rest,
          schemaVersion: 1,
          stack: flows,
          turnCount: turns,
          historySeq: 0,
          flags: { keepGoing: false, hasIssues: false, hasPlan: false, naturalBirth: true },
          scratchpad: [],
          extensions: {},
        }),
      },
    ];

    it('migrates an older snapshot up to the current version without touching the input text', () => {
      const text = JSON.stringify(v0);
      const decoded = decodeSnapshot('t1', text, { migrations });
      expect(decoded).toMatchObject({ schemaVersion: 1, stack: v0.flows, turnCount: 2, historySeq: 0 });
      expect(text).toBe(JSON.stringify(v0));
    });

    it('leaves a current snapshot alone', () => {
      expect(decodeSnapshot('t1', encodeSnapshot(snapshot()), { migrations })).toEqual(snapshot());
    });

    it('raises invalid_shape when a migration throws, keeping the cause', () => {
      const failing: SnapshotMigration[] = [
        {
          from: 0,
          to: 1,
          migrate: () => {
            throw new Error('no flows');
          },
        },
      ];
      const error = decodeError(JSON.stringify(v0), { migrations: failing });
      expect(error.reason).toBe('invalid_shape');
      expect(error.message).toContain('from version 0 to 1 failed: no flows');
      expect(error.cause).toBeInstanceOf(Error);
    });

    it('raises invalid_shape when a migration produces a bad snapshot', () => {
      const sloppy: SnapshotMigration[] = [
        { from: 0, to: 1, migrate: (old) => ({ ...old, schemaVersion: 1 }) },
      ];
      expect(decodeError(JSON.stringify(v0), { migrations: sloppy }).reason).toBe('invalid_shape');
    });
  });

  describe('encodeSnapshot', () => {
    it('refuses a snapshot that could not be read back, before anything is written', () => {
      const bad = { ...snapshot(), stack: [{ id: 'x' }] } as unknown as ThreadSnapshot;
      expect(() => encodeSnapshot(bad)).toThrow(SnapshotError);
      expect(() => encodeSnapshot(bad)).toThrow(/stack\.0\.name/);
    });

    it('refuses values JSON cannot hold', () => {
      const withBigInt = snapshot({ extensions: { n: 1n } });
      expect(() => encodeSnapshot(withBigInt)).toThrow(SnapshotError);
    });

    it('refuses numbers JSON would write as null, which could not be read back', () => {
      for (const bad of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN]) {
        expect(() => encodeSnapshot(snapshot({ turnCount: bad }))).toThrow(/turnCount/);
        const scratchpad = [{ key: 'k', text: 't', source: 's', time: bad }];
        expect(() => encodeSnapshot(snapshot({ scratchpad }))).toThrow(/scratchpad\.0\.time/);
      }
    });
  });

  describe('encoding and decoding accept and refuse the same snapshots', () => {
    // Each case both ways: encoding an object, and decoding the text another writer could have stored.
    const cases: [string, unknown, boolean][] = [
      ['a full snapshot', snapshot(), true],
      ['an optional field left undefined', { ...snapshot(), principal: undefined }, true],
      ['a key this version does not know', { ...snapshot(), color: 'red' }, false],
      [
        'a flow without its name',
        { ...snapshot(), stack: [{ id: 'x', status: 'active', slots: {}, retries: 0 }] },
        false,
      ],
      ['a negative turn count', snapshot({ turnCount: -1 }), false],
      ['a fractional history seq', snapshot({ historySeq: 1.5 }), false],
      ['an empty thread id', { ...snapshot(), threadId: '' }, false],
      [
        'an unknown diff operation',
        snapshot({ diffs: [{ turn: 1, turnId: 't', changes: [{ op: 'jump' }] }] } as never),
        false,
      ],
      [
        'a flags diff with an unknown flag',
        snapshot({
          diffs: [{ turn: 1, turnId: 't', changes: [{ op: 'flags', set: { loud: true } }] }],
        } as never),
        false,
      ],
      ['any JSON under extensions', snapshot({ extensions: { deep: { a: [1, { b: null }] } } }), true],
    ];
    it.each(cases)('%s', (_name, value, valid) => {
      const encode = () => encodeSnapshot(value as ThreadSnapshot);
      if (valid) {
        const text = encode();
        expect(decodeSnapshot((value as ThreadSnapshot).threadId, text)).toEqual(JSON.parse(text));
      } else {
        expect(encode).toThrow(SnapshotError);
        const text = JSON.stringify(value);
        const threadId = (value as ThreadSnapshot).threadId || 't1';
        expect(() => decodeSnapshot(threadId, text)).toThrow(SnapshotError);
      }
    });
  });

  describe('the compiled check agrees with the Zod schema', () => {
    // Ajv answers first on every encode and decode (src/store/internal/snapshot-shape-check.ts); a snapshot
    // it accepted and Zod would refuse would be written. Each case is a change of one part of the shape.
    const flow = { id: 'f', name: 'n', status: 'active', slots: {}, retries: 0 };
    const variants: [string, unknown][] = [
      ['the full snapshot', snapshot()],
      ['schema version 2', { ...snapshot(), schemaVersion: 2 }],
      ['a string schema version', { ...snapshot(), schemaVersion: '1' }],
      ['null principal', { ...snapshot(), principal: null }],
      ['an array for the root', [snapshot()]],
      ['null extensions', { ...snapshot(), extensions: null }],
      ['an array for extensions', { ...snapshot(), extensions: [] }],
      ['an array for preferences', { ...snapshot(), preferences: [] }],
      ['preferences', { ...snapshot(), preferences: { tone: 'short' } }],
      ['an array for slots', { ...snapshot(), stack: [{ ...flow, slots: [] }] }],
      ['an unknown flow status', { ...snapshot(), stack: [{ ...flow, status: 'done' }] }],
      ['a flow with an extra key', { ...snapshot(), stack: [{ ...flow, colour: 1 }] }],
      [
        'a flow with all optional fields',
        {
          ...snapshot(),
          stack: [
            {
              ...flow,
              planId: 'p',
              result: { a: 1 },
              metadata: {},
              recovery: ['retry'],
              dependsOn: ['x'],
              returnTo: 'y',
              confirmed: 'z',
            },
          ],
        },
      ],
      ['an unknown recovery step', { ...snapshot(), stack: [{ ...flow, recovery: ['pray'] }] }],
      ['numbers in dependsOn', { ...snapshot(), stack: [{ ...flow, dependsOn: [1] }] }],
      ['retries beyond the safe integers', { ...snapshot(), stack: [{ ...flow, retries: 2 ** 60 }] }],
      ['infinite retries', { ...snapshot(), stack: [{ ...flow, retries: Number.POSITIVE_INFINITY }] }],
      [
        'a NaN scratchpad time',
        snapshot({ scratchpad: [{ key: 'k', text: 't', source: 's', time: Number.NaN }] }),
      ],
      [
        'a scratchpad entry without time',
        { ...snapshot(), scratchpad: [{ key: 'k', text: 't', source: 's' }] },
      ],
      ['a missing flag', { ...snapshot(), flags: { keepGoing: true, hasIssues: false, hasPlan: true } }],
      ['a string flag', { ...snapshot(), flags: { ...snapshot().flags, hasPlan: 'yes' } }],
      [
        'a pending question of an unknown kind',
        { ...snapshot(), pending: { ...snapshot().pending, kind: 'form' } },
      ],
      [
        'a pending question without text',
        { ...snapshot(), pending: { kind: 'slot', flowId: 'f', level: 'general' } },
      ],
      [
        'pending options that are not strings',
        { ...snapshot(), pending: { ...snapshot().pending, options: [1] } },
      ],
      ['background flows', { ...snapshot(), background: [flow] }],
      ['a background flow without retries', { ...snapshot(), background: [{ ...flow, retries: undefined }] }],
      ['a missing stack', { ...snapshot(), stack: undefined }],
      [
        'every diff operation',
        snapshot({
          diffs: [
            {
              turn: 1,
              turnId: 't',
              changes: [
                { op: 'push', flowId: 'f', name: 'n', planId: 'p' },
                { op: 'pop', flowId: 'f', name: 'n', status: 'completed' },
                { op: 'status', flowId: 'f', name: 'n', from: 'pending', to: 'active' },
                { op: 'slots', flowId: 'f', name: 'n', set: { a: 1 }, cleared: ['b'] },
                { op: 'flags', set: { keepGoing: false } },
                { op: 'schedule', flowId: 'f', name: 'n', dependsOn: [] },
                { op: 'background', flowId: 'f', name: 'n', status: 'active' },
              ],
            },
          ],
        } as never),
      ],
      [
        'a diff operation with an extra key',
        snapshot({
          diffs: [
            {
              turn: 1,
              turnId: 't',
              changes: [{ op: 'pop', flowId: 'f', name: 'n', status: 'completed', why: 1 }],
            },
          ],
        } as never),
      ],
      [
        'a status diff without its target status',
        snapshot({
          diffs: [
            { turn: 1, turnId: 't', changes: [{ op: 'status', flowId: 'f', name: 'n', from: 'pending' }] },
          ],
        } as never),
      ],
      ['a fractional diff turn', snapshot({ diffs: [{ turn: 1.5, turnId: 't', changes: [] }] })],
    ];
    it.each(variants)('%s', (_name, value) => {
      expect(looksLikeSnapshot(value)).toBe(threadSnapshotSchema.safeParse(value).success);
    });
  });
});
