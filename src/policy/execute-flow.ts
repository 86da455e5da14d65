/**
 * PEX `execute()` for the active flow (seed 000): check → slot review → skill → result processing.
 * It returns what happened as data; the agent applies it to the stack and composes the reply.
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { runSkillLoop, type SkillLoopEvent } from '../loop/index.js';
import { renderSkillPrompt } from '../skill/index.js';
import type { FlowInstance, FlowSpec, PendingQuestion, SkillOutcome } from '../spec/index.js';
import { createToolSet, type ToolBatchContext, type ToolSet } from '../tool/index.js';
import { checkFlow } from './check-flow.js';
import { reviewSlots } from './review-slots.js';

export type FlowExecution =
  | { kind: 'blocked'; problems: string[] }
  | { kind: 'ask'; question: PendingQuestion }
  | { kind: 'ran'; outcome: SkillOutcome; loop: { events: SkillLoopEvent[]; iterations: number } };

export interface ExecuteFlowOptions {
  flow: FlowInstance | undefined;
  spec: FlowSpec | undefined;
  tools: ToolSet;
  model: LanguageModelV3;
  persona: string;
  /** Recent conversation, ending with the user's latest message. */
  context: LanguageModelV3Prompt;
  batch: Omit<ToolBatchContext, 'tools'>;
  maxIterations: number;
  stream?: boolean;
  signal?: AbortSignal;
}

export async function executeFlow(options: ExecuteFlowOptions): Promise<FlowExecution> {
  const problems = checkFlow(options);
  if (problems.length > 0 || !options.flow || !options.spec) {
    return { kind: 'blocked', problems: problems.map((p) => p.message) };
  }
  const { flow, spec } = options;
  const question = reviewSlots(spec, flow);
  if (question) return { kind: 'ask', question };
  const flowTools = createToolSet(
    spec.tools.map((name) => options.tools.get(name)).filter((t) => t !== undefined),
  );
  const system = renderSkillPrompt({ persona: options.persona, spec, flow });
  const loop = await runSkillLoop({
    model: options.model,
    prompt: [{ role: 'system', content: system }, ...options.context],
    tools: flowTools,
    batch: options.batch,
    flow: spec.name,
    parentId: flow.id,
    complexity: spec.complexity ?? 'simple',
    maxIterations: options.maxIterations,
    ...(spec.complexity === 'complex' && spec.successCriteria
      ? { reflection: { successCriteria: spec.successCriteria } }
      : {}),
    ...(options.stream ? { stream: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { kind: 'ran', outcome: loop.outcome, loop: { events: loop.events, iterations: loop.iterations } };
}
