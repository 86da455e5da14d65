/**
 * The execution phase of a turn: run the active flow's policy, apply what it returns to the stack, pop
 * finished flows, and go on while a flow that waited below becomes active (bounded per turn).
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { activeFlow, completeActiveFlow, invalidateActiveFlow, popFinishedFlows } from '../flow/index.js';
import { executeFlow, recover } from '../policy/index.js';
import { describeResult, frameFor } from '../respond/index.js';
import type { FlowSpec, SkillOutcome } from '../spec/index.js';
import type { ToolBatchContext, ToolSet } from '../tool/index.js';
import type { AgentLimits } from './agent-types.js';
import { observe, record, type TurnState } from './turn-state.js';

export interface RunFlowsOptions {
  turn: TurnState;
  flows: ReadonlyMap<string, FlowSpec>;
  tools: ToolSet;
  model: LanguageModelV3;
  persona: string;
  context: LanguageModelV3Prompt;
  batch: Omit<ToolBatchContext, 'tools'>;
  limits: AgentLimits;
  stream?: boolean;
  signal?: AbortSignal;
}

export async function runFlows(options: RunFlowsOptions): Promise<void> {
  const { turn } = options;
  const snapshot = turn.snapshot;
  for (let step = 0; step < options.limits.maxFlowsPerTurn; step++) {
    const flow = activeFlow(snapshot.stack);
    if (!flow || snapshot.pending) return;
    const spec = options.flows.get(flow.name);
    const execution = await executeFlow({
      flow,
      spec,
      tools: options.tools,
      model: options.model,
      persona: options.persona,
      context: options.context,
      batch: options.batch,
      maxIterations:
        spec?.complexity === 'complex'
          ? options.limits.maxSkillIterationsComplex
          : options.limits.maxSkillIterations,
      ...(options.stream ? { stream: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (execution.kind === 'blocked') {
      snapshot.stack = invalidateActiveFlow(snapshot.stack);
      snapshot.flags.hasIssues = true;
      turn.failed = true;
      turn.replyParts.push({ text: `I cannot run "${flow.name}": ${execution.problems.join(' ')}` });
      observe(turn, 'error', { phase: 'check', problems: execution.problems }, flow.id);
    } else if (execution.kind === 'ask') {
      snapshot.pending = execution.question;
      observe(
        turn,
        'clarification',
        { slot: execution.question.slot, question: execution.question.question },
        flow.id,
      );
      return;
    } else {
      for (const event of execution.loop.events) {
        if (event.type === 'tool-call') {
          record(turn, 'tool-call', {
            flowId: flow.id,
            callId: event.callId,
            toolName: event.toolName,
            input: event.input,
          });
          observe(turn, 'tool-call', { callId: event.callId, toolName: event.toolName }, flow.id);
        } else if (event.type === 'tool-result') {
          const { result } = event;
          record(turn, 'tool-result', { flowId: flow.id, ...result });
          observe(
            turn,
            'tool-execution',
            { callId: result.callId, toolName: result.toolName, status: result.status },
            flow.id,
          );
        } else if (event.type === 'thoughts') {
          observe(turn, 'thoughts', { text: event.text }, flow.id);
        }
      }
      const again = applyOutcome(turn, flow.name, execution.outcome);
      if (again) continue;
      if (execution.outcome.outcome === 'uncertain' || execution.outcome.outcome === 'suspended') return;
    }
    const popped = popFinishedFlows(snapshot.stack);
    snapshot.stack = popped.stack;
    for (const f of popped.popped)
      observe(turn, 'flow-pop', { flow: f.name, flowId: f.id, status: f.status }, f.id);
  }
}

/** Applies a skill's outcome to the stack and the reply; returns true when the flow should run again. */
function applyOutcome(turn: TurnState, flowName: string, outcome: SkillOutcome): boolean {
  const snapshot = turn.snapshot;
  const flow = activeFlow(snapshot.stack);
  if (!flow) return false;
  switch (outcome.outcome) {
    case 'success': {
      snapshot.stack = completeActiveFlow(snapshot.stack, outcome.data);
      for (const text of outcome.scratchpadEntries) {
        snapshot.scratchpad = [
          ...snapshot.scratchpad,
          { key: `${flow.id}:${snapshot.scratchpad.length}`, text, source: flowName, time: turn.clock.now() },
        ].slice(-64);
      }
      const frame = frameFor(flowName, outcome.data);
      turn.replyParts.push(
        frame ? { text: describeResult(outcome.data), frame } : { text: describeResult(outcome.data) },
      );
      return false;
    }
    case 'failure':
      snapshot.stack = invalidateActiveFlow(snapshot.stack);
      snapshot.flags.hasIssues = true;
      turn.failed = true;
      turn.replyParts.push({ text: `I could not finish "${flowName}": ${outcome.message}` });
      observe(
        turn,
        'error',
        { phase: 'skill', category: outcome.errorCategory, message: outcome.message },
        flow.id,
      );
      return false;
    case 'uncertain': {
      const action = recover(flow, outcome);
      if (action.action === 'retry') {
        snapshot.stack = snapshot.stack.map((f) => (f.id === flow.id ? { ...f, retries: f.retries + 1 } : f));
        return true;
      }
      turn.replyParts.push({ text: action.question });
      return false;
    }
    case 'suspended': {
      turn.suspended = true;
      const about = outcome.kind === 'tool' || outcome.kind === 'escalate' ? ` on ${outcome.toolName}` : '';
      turn.replyParts.push({ text: `Waiting for your decision${about}: ${outcome.reason}` });
      observe(turn, 'suspended', { ...outcome }, flow.id);
      return false;
    }
  }
}
