/**
 * PEX phase 3 of `executeFlow`: the skill run of a reviewed flow. The skill gets the flow's own tools
 * with the component tools, a system prompt composed for the flow, and a workspace the component tools
 * read and write; the user's confirmation becomes one approval per tool that needs it, for a call with
 * the slot values the user confirmed.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { runSkillLoop, type SkillLoopResult } from '../loop/index.js';
import type { ScratchpadEntry } from '../spec/index.js';
import { approveConfirmedCalls, createToolSet, type ToolSet } from '../tool/index.js';
import { copyWith } from '../util/index.js';
import { sharedComponentTools } from './component-tools.js';
import type { ExecuteFlowOptions } from './execute-flow-options.js';
import type { ReviewedFlow } from './review-and-confirm-slots.js';
import { runFlowScript } from './run-flow-script.js';
import { composeSkillPrompt } from './skill-prompt.js';

/** What the skill run left: the loop's result and the workspace its component tools wrote to. */
export interface FlowSkillRun {
  loop: SkillLoopResult;
  workspace: { scratchpad: ScratchpadEntry[]; written: string[] };
}

/** Runs the flow's skill to an outcome. */
export async function runFlowSkill(
  options: ExecuteFlowOptions,
  reviewed: ReviewedFlow,
): Promise<FlowSkillRun> {
  const { state, flow, definition, check } = reviewed;
  const workspace = {
    history: options.history,
    scratchpad: [...options.scratchpad],
    preferences: options.preferences,
    stack: state.stack,
    previous: options.previous,
    flowId: flow.id,
    flowName: flow.name,
    clock: options.batch.clock,
    maxScratchpadEntries: options.maxScratchpadEntries,
    written: [] as string[],
  };
  // The flow's own required tools and the caller's (a plan item's) are enforced alike.
  const requiredTools = [...new Set([...(definition.requiredTools ?? []), ...(options.requiredTools ?? [])])];
  // The user's yes to the confirmation covers one call of each tool that needs approval (tool/…), with
  // the slot values the confirmation showed as its arguments.
  const approvals = [...check.tools.values()].filter((t) => t.requiresApproval).map((t) => t.name);
  const shown = Object.fromEntries(
    definition.slots.filter((s) => flow.slots[s.name] !== undefined).map((s) => [s.name, flow.slots[s.name]]),
  );
  const batch =
    approvals.length > 0
      ? copyWith(options.batch, {
          runScope: workspace,
          approvals: approveConfirmedCalls({
            toolNames: approvals,
            shown,
            ...(options.batch.approvals ? { fallback: options.batch.approvals } : {}),
          }),
        })
      : copyWith(options.batch, { runScope: workspace });
  // A SCRIPT flow's code runs where the model loop would, with the flow's own tools only.
  if (definition.run) {
    const loop = await runFlowScript({
      script: definition.run,
      flow,
      batch: copyWith(batch, { tools: check.tools }),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.stopRequested ? { stopRequested: options.stopRequested } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      ...(requiredTools.length > 0 ? { requiredTools } : {}),
    });
    return { loop, workspace };
  }
  const system = composeSkillPrompt({
    persona: options.persona,
    ...(options.domain ? { domain: options.domain } : {}),
    spec: definition,
    flow,
    preferences: options.preferences,
    ...(options.guidance ? { guidance: options.guidance } : {}),
  });
  const tools = withComponentTools(check.tools);
  const loop = await runSkillLoop({
    model: options.model,
    prompt: [{ role: 'system', content: system } as LanguageModelV3Message, ...options.context],
    tools,
    batch,
    flow: definition.name,
    parentId: flow.id,
    complexity: definition.complexity ?? 'simple',
    ...(options.limits ? { limits: options.limits } : {}),
    ...(requiredTools.length > 0 ? { requiredTools } : {}),
    ...(options.resume ? { resume: options.resume } : {}),
    ...(definition.complexity === 'complex' && definition.successCriteria
      ? { reflection: { successCriteria: definition.successCriteria } }
      : {}),
    ...(options.stream ? { stream: true } : {}),
    ...(options.toolCalling === 'text' ? { toolCalling: 'text' as const } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.stop ? { stop: options.stop } : {}),
    ...(options.stopRequested ? { stopRequested: options.stopRequested } : {}),
  });
  return { loop, workspace };
}

/**
 * A flow's tools with the component tools, one set per flow tool set: the component tools read their
 * run's workspace from the batch (`runScope`), so the set is the same from run to run, and so is the
 * skill loop's cache of the tools it offers the model.
 */
const withComponents = new WeakMap<ToolSet, ToolSet>();

function withComponentTools(flowTools: ToolSet): ToolSet {
  let set = withComponents.get(flowTools);
  if (!set) {
    set = createToolSet([...flowTools.values(), ...sharedComponentTools()]);
    withComponents.set(flowTools, set);
  }
  return set;
}
