/**
 * Records what a skill run did — tool calls and results as history rows, thoughts and tool activity as
 * observations — linked to the flow or plan item that ran it (seed 002 hierarchical ids).
 */
import type { SkillLoopEvent } from '../loop/index.js';
import { observe, record, type TurnState } from './turn-state.js';

export function recordSkillEvents(
  turn: TurnState,
  events: readonly SkillLoopEvent[],
  parentId: string,
): void {
  for (const event of events) {
    if (event.type === 'tool-call') {
      record(turn, 'tool-call', {
        flowId: parentId,
        callId: event.callId,
        toolName: event.toolName,
        input: event.input,
      });
      observe(turn, 'tool-call', { callId: event.callId, toolName: event.toolName }, parentId);
    } else if (event.type === 'tool-result') {
      const { result } = event;
      record(turn, 'tool-result', { flowId: parentId, ...result });
      observe(
        turn,
        'tool-execution',
        { callId: result.callId, toolName: result.toolName, status: result.status },
        parentId,
      );
    } else if (event.type === 'thoughts') {
      observe(turn, 'thoughts', { text: event.text }, parentId);
    }
  }
}
