import type { ToolCallResult } from '../../spec/index.js';
import { runWithinDeadline } from '../../util/index.js';
import type { ToolCallState } from '../tool-call-state.js';
import { toolDefaults } from '../tool-defaults.js';
import type { StageAnswer } from '../tool-stage.js';

const maxSimulationChars = 1_000;

/**
 * Anticipatory simulation of `restricted` and `privileged` calls (seed 003), when the batch has a
 * simulator. It is advisory and never blocks: the prediction runs alongside the call, on redacted
 * arguments, bounded by `simulationTimeoutMs`; a slow or failing simulator is ignored. The prediction
 * is attached to the result (`attachSimulation`) and shown to the model after the result.
 */
export function startSimulation(state: ToolCallState): ToolCallResult | undefined {
  const level = state.tool?.capability;
  if (state.batch.simulate && (level === 'restricted' || level === 'privileged'))
    state.simulation = predict(state);
  return undefined;
}

/** Attaches the call's prediction, redacted and bounded, to its result (not to a suspension). */
export function attachSimulation(state: ToolCallState, result: ToolCallResult): StageAnswer<ToolCallResult> {
  const simulation = state.simulation;
  return simulation ? withSimulation(state, result, simulation) : result;
}

async function withSimulation(
  state: ToolCallState,
  result: ToolCallResult,
  simulation: Promise<string | undefined>,
): Promise<ToolCallResult> {
  const prediction = await simulation;
  if (prediction === undefined || result.status === 'suspended') return result;
  const text = state.batch.redact.text(prediction);
  return {
    ...result,
    simulation: text.length > maxSimulationChars ? `${text.slice(0, maxSimulationChars)}…` : text,
  };
}

/** Runs the simulator within its time bound; `undefined` on any failure, never a rejection. */
async function predict(state: ToolCallState): Promise<string | undefined> {
  const { batch, tool } = state;
  const simulate = batch.simulate;
  if (!simulate || !tool) return undefined;
  try {
    const redactedInput = batch.redact.value(state.input);
    const outcome = await runWithinDeadline({
      clock: batch.clock,
      deadline: batch.clock.now() + (batch.simulationTimeoutMs ?? toolDefaults.simulationTimeoutMs),
      signal: batch.signal,
      work: (abort) => simulate({ tool, redactedInput, signal: abort.signal }),
    });
    if (outcome.status !== 'done' || typeof outcome.value !== 'string') return undefined;
    return outcome.value.trim() || undefined;
  } catch {
    return undefined;
  }
}
