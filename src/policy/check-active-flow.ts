/**
 * PEX phase 1 of `executeFlow`: the pre-hook check of the active flow, before any tokens are spent. A flow
 * that fails it ends the execution as `blocked`; one that passes goes on to slot review with the checked
 * tool set and the base every later phase builds on.
 */
import { type FlowDefinition, transitionDialogue } from '../flow/index.js';
import type { FlowInstance } from '../spec/index.js';
import { type CheckProblem, checkFlow, type FlowCheck } from './check-flow.js';
import type { ExecuteFlowOptions } from './execute-flow-options.js';
import type { ExecutionBase, FlowExecution } from './flow-execution.js';

/** A flow that passed the pre-hook check. */
export interface CheckedFlow {
  flow: FlowInstance;
  definition: FlowDefinition;
  check: FlowCheck;
  base: ExecutionBase;
}

/** Runs the pre-hook check: `blocked` when it fails, else the checked flow. */
export function checkActiveFlow(
  options: ExecuteFlowOptions,
): { blocked: FlowExecution } | { checked: CheckedFlow } {
  const state = options.state;
  const flow = state.stack.at(-1);
  const check = checkFlow({
    flow,
    stack: state.stack,
    definition: options.definition,
    tools: options.tools,
  });
  const base: ExecutionBase = {
    state,
    scratchpad: [...options.scratchpad],
    events: [],
    filled: [],
    gated: check.gated,
  };
  if (check.problems.length > 0 || !flow || !options.definition)
    return { blocked: blockExecution(base, check.problems) };
  return { checked: { flow, definition: options.definition, check, base } };
}

/** Ends the execution as `blocked`, flagging the dialogue state as having issues. */
export function blockExecution(base: ExecutionBase, problems: CheckProblem[]): FlowExecution {
  return {
    ...base,
    state: transitionDialogue(base.state, { type: 'set-flags', flags: { hasIssues: true } }),
    kind: 'blocked',
    problems,
  };
}
