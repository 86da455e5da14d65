import { describe, expect, it } from 'vitest';
import type { SkillLoopEvent } from '../loop/index.js';
import type { ThreadSnapshot, ToolCallResult } from '../spec/index.js';
import { recordLoopEvents } from './flow-run-context.js';
import type { TurnState } from './turn-state.js';

function turnAt(times: number[]): TurnState {
  return {
    threadId: 't1',
    turnId: 'turn_1',
    snapshot: {} as ThreadSnapshot,
    baseVersion: 0,
    history: [],
    observations: [],
    replyParts: [],
    failed: false,
    suspended: false,
    clock: { now: () => times.shift() ?? -1, sleep: async () => undefined },
    lease: undefined,
  };
}

const success: ToolCallResult = {
  status: 'success',
  callId: 'call_1',
  toolName: 'add',
  output: { sum: 2, note: 'a "quoted"\nline' },
  contextText: '{"sum":2}',
};
const failure: ToolCallResult = {
  status: 'error',
  callId: 'call_2',
  toolName: 'upper',
  error: { category: 'validation_error', message: 'text is required', retryable: false },
  contextText: 'validation_error: text is required',
};

describe('recordLoopEvents', () => {
  it("writes each call's and result's row as the JSON of the row's object, linked to the flow", () => {
    const turn = turnAt([100, 200, 300]);
    const events: SkillLoopEvent[] = [
      { type: 'tool-call', callId: 'call_1', toolName: 'add', input: '{"a":0,"b":"\\u00e9 \\"2\\""}' },
      { type: 'tool-result', result: success },
      { type: 'tool-call', callId: 'call_2', toolName: 'upper', input: '' },
      { type: 'tool-result', result: failure },
      { type: 'thoughts', text: 'thinking' },
    ];
    recordLoopEvents(turn, 'flow "1"', events, { text: (t) => t, value: (v) => v });
    expect(turn.history.map((row) => row.kind)).toEqual([
      'tool-call',
      'tool-result',
      'tool-call',
      'tool-result',
    ]);
    expect(turn.history.map((row) => row.data)).toEqual([
      JSON.stringify({
        flowId: 'flow "1"',
        callId: 'call_1',
        toolName: 'add',
        input: '{"a":0,"b":"\\u00e9 \\"2\\""}',
      }),
      JSON.stringify({ flowId: 'flow "1"', ...success }),
      JSON.stringify({ flowId: 'flow "1"', callId: 'call_2', toolName: 'upper', input: '' }),
      JSON.stringify({ flowId: 'flow "1"', ...failure }),
    ]);
    expect(turn.history.every((row) => row.turnId === 'turn_1')).toBe(true);
    // Recorded together: the observations share the one reading of the clock.
    expect(turn.observations.map((o) => [o.type, o.time, o.parentId])).toEqual([
      ['tool-call', 100, 'flow "1"'],
      ['tool-execution', 100, 'flow "1"'],
      ['tool-call', 100, 'flow "1"'],
      ['tool-execution', 100, 'flow "1"'],
      ['thoughts', 100, 'flow "1"'],
    ]);
  });
});
