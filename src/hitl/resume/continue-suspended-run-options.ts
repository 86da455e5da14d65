/**
 * The inputs of going on with a suspended skill run, in a file of their own because `continueSuspendedRun`
 * and the settlement of each answered question both read them.
 */
import type { SuspendedRun, SuspensionRecord, ToolCallResult } from '../../spec/index.js';
import type { ToolBatchContext, ToolSet } from '../../tool/index.js';
import type { TurnState } from '../../turn/index.js';

export interface ContinueSuspendedRunOptions {
  run: SuspendedRun;
  turn: TurnState;
  tools: ToolSet;
  batch: Omit<ToolBatchContext, 'tools'>;
  /** The flow or plan item the run belongs to (observations' parent). */
  parentId: string;
  /**
   * Settles feedback some tools handle themselves (an A2A delegation passes the answer to the remote
   * agent): a result, a new question, or `undefined` to take the answer as the result.
   */
  settleFeedback?: (
    record: SuspensionRecord,
    answer: unknown,
  ) => Promise<ToolCallResult | { ask: string } | undefined>;
}
