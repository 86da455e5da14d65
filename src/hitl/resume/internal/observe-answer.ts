/** Observes what people decided on one question of a suspended run (a `resumed` observation). */
import type { SuspensionRecord } from '../../../spec/index.js';
import { observe, type TurnState } from '../../../turn/index.js';

/** Records the `resumed` observation of one question with the decision taken on it. */
export function observeAnswer(
  turn: TurnState,
  question: SuspensionRecord,
  decision: string,
  parentId: string,
): void {
  observe(
    turn,
    'resumed',
    {
      suspensionId: question.id,
      kind: question.kind,
      decision,
      ...(question.callId ? { callId: question.callId } : {}),
      ...(question.toolName ? { toolName: question.toolName } : {}),
      ...(question.answeredBy ? { answeredBy: question.answeredBy } : {}),
    },
    parentId,
  );
}
