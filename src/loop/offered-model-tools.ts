/**
 * The tools a step's model call offers: the run's tools less the ones the circuit breaker withdrew, then
 * `finish_skill`. A reflection call offers none.
 */
import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import { finishSkillTool } from './finish-skill-tool.js';
import { offeredToolNames, type SkillRun } from './internal/skill-run.js';
import { toModelTools } from './to-model-tools.js';

/**
 * The tools offered for a call: the run's tools less the withdrawn ones, then `finish_skill`. Built once
 * per tool set and withdrawn list (a run's calls mostly share one), not at every call: the same array
 * goes to every call with that offer, and nothing downstream changes it.
 */
const offers = new WeakMap<SkillRun['tools'], Map<string, LanguageModelV3FunctionTool[]>>();

/** The flow's tools that are still offered, plus `finish_skill`. */
export function offeredModelTools(run: SkillRun): LanguageModelV3FunctionTool[] {
  const withdrawnKey = run.state.breaker.withdrawn.join('\n');
  let byWithdrawn = offers.get(run.tools);
  if (!byWithdrawn) {
    byWithdrawn = new Map();
    offers.set(run.tools, byWithdrawn);
  }
  let tools = byWithdrawn.get(withdrawnKey);
  if (!tools) {
    const offered = new Set(offeredToolNames(run));
    tools = [...toModelTools(run.tools).filter((tool) => offered.has(tool.name)), finishSkillTool];
    byWithdrawn.set(withdrawnKey, tools);
  }
  return tools;
}
