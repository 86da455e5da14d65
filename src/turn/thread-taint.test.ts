import { describe, expect, it } from 'vitest';
import { createThreadSnapshot } from '../flow/index.js';
import type { FlowInstance, TaintRecord } from '../spec/index.js';
import { addTaintSource } from '../tool/index.js';
import { systemClock } from '../util/index.js';
import { openThreadTaint, recordThreadTaint } from './thread-taint.js';
import { createTurnRecord } from './turn-state.js';
import type { ConversationMessage } from './turn-types.js';

const plan: FlowInstance = { id: 'flow_9', name: 'trip', status: 'active', slots: {}, retries: 0 };
const page: TaintRecord = { tool: 'fetch_page', callId: 'call_1', turnId: 'turn_1' };

function turnWith(records: TaintRecord[], options: { notes?: string[]; stack?: FlowInstance[] } = {}) {
  const snapshot = createThreadSnapshot('t1');
  snapshot.taint = records;
  snapshot.scratchpad = (options.notes ?? []).map((key) => ({ key, text: key, source: 'f', time: 0 }));
  snapshot.stack = options.stack ?? [];
  return createTurnRecord({
    threadId: 't1',
    turnId: 'turn_5',
    snapshot,
    baseVersion: 1,
    clock: systemClock,
    lease: undefined,
  });
}

const window = (...turnIds: string[]): ConversationMessage[] =>
  turnIds.map((turnId, seq) => ({ seq, role: 'user', text: 'hi', turnId }));

describe('taint as thread state', () => {
  it('seeds the turn from each record its context still reaches, saying how', () => {
    const cases: [string, ReturnType<typeof turnWith>, ConversationMessage[], string | undefined][] = [
      ['history', turnWith([page]), window('turn_1', 'turn_2'), 'the conversation history'],
      [
        'note',
        turnWith([{ ...page, notes: ['n1'] }], { notes: ['n1'] }),
        window('turn_4'),
        "the scratchpad note 'n1'",
      ],
      [
        'plan',
        turnWith([{ ...page, flows: ['flow_9'] }], { stack: [plan] }),
        window('turn_4'),
        "the flow 'trip' (flow_9) and its results",
      ],
      ['gone', turnWith([{ ...page, notes: ['n1'], flows: ['flow_9'] }]), window('turn_4'), undefined],
    ];
    for (const [name, turn, messages, via] of cases) {
      const taint = openThreadTaint(turn, messages);
      expect({ name, tainted: taint.tainted, via: taint.origins?.[0]?.via }).toEqual({
        name,
        tainted: via !== undefined,
        via,
      });
      expect(turn.snapshot.taint).toEqual(via === undefined ? undefined : [expect.objectContaining(page)]);
    }
  });

  it('records content that came in during the turn with the notes it wrote and the flows on its stack', () => {
    const turn = turnWith([], { notes: ['old'], stack: [plan] });
    const taint = openThreadTaint(turn, window());
    expect(taint.tainted).toBe(false);
    addTaintSource(taint, { tool: 'fetch_page', callId: 'call_7', turnId: 'turn_5' });
    turn.snapshot.scratchpad.push({ key: 'new', text: 'what the page said', source: 'f', time: 1 });
    recordThreadTaint(turn);
    expect(turn.snapshot.taint).toEqual([
      { tool: 'fetch_page', callId: 'call_7', turnId: 'turn_5', notes: ['new'], flows: ['flow_9'] },
    ]);
  });

  it('does not spread an inherited record to what a later turn writes', () => {
    const turn = turnWith([page], { stack: [plan] });
    openThreadTaint(turn, window('turn_1'));
    turn.snapshot.scratchpad.push({ key: 'new', text: 'a reply', source: 'f', time: 1 });
    recordThreadTaint(turn);
    expect(turn.snapshot.taint).toEqual([page]);
  });

  it('leaves a thread that never read untrusted content without a record', () => {
    const turn = turnWith([], { notes: ['n1'], stack: [plan] });
    openThreadTaint(turn, window('turn_4'));
    recordThreadTaint(turn);
    expect(turn.snapshot.taint).toBeUndefined();
  });
});

describe('a resumed run that holds inherited content in its own transcript', () => {
  it('records it again for this turn, with the notes the run wrote', () => {
    const turn = turnWith([page]);
    const taint = openThreadTaint(turn, window('turn_1'));
    // The run suspended in turn_1 goes on here: its restored transcript holds the page's result.
    addTaintSource(taint, { tool: 'fetch_page', callId: 'call_1', turnId: 'turn_1' });
    expect(taint.origins).toEqual([{ tool: 'fetch_page', callId: 'call_1', turnId: 'turn_1' }]);
    turn.snapshot.scratchpad.push({ key: 'summary', text: 'what the page said', source: 'f', time: 1 });
    recordThreadTaint(turn);
    expect(turn.snapshot.taint).toEqual([
      page,
      { tool: 'fetch_page', callId: 'call_1', turnId: 'turn_5', notes: ['summary'] },
    ]);
  });
});
