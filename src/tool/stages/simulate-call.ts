import type { ToolCallState } from '../tool-call-state.js';
import { toolDefaults } from '../tool-defaults.js';
import type { ToolStage } from '../tool-pipeline.js';

const maxSimulationChars = 1_000;

/**
 * Anticipatory simulation of `restricted` and `privileged` calls (seed 003), when the batch has a
 * simulator. It is advisory and never blocks: the prediction runs alongside the call, on redacted
 * arguments, bounded by `simulationTimeoutMs`; a slow or failing simulator is ignored. The prediction
 * is attached to the result (`simulation`) and shown to the model after the result.
 */
export const simulateCall: ToolStage = (state, next) => {
  const level = state.tool?.capability;
  return state.batch.simulate && (level === 'restricted' || level === 'privileged')
    ? simulateAlongside(state, next)
    : next(state);
};

const simulateAlongside: ToolStage = async (state, next) => {
  state.simulation = startSimulation(state);
  const result = await next(state);
  const prediction = await state.simulation;
  if (prediction === undefined || result.status === 'suspended') return result;
  const text = state.batch.redact.text(prediction);
  return {
    ...result,
    simulation: text.length > maxSimulationChars ? `${text.slice(0, maxSimulationChars)}…` : text,
  };
};

/** Runs the simulator within its time bound; resolves to `undefined` on any failure, never rejects. */
function startSimulation(state: ToolCallState): Promise<string | undefined> {
  const { batch } = state;
  const simulate = batch.simulate;
  const tool = state.tool;
  if (!simulate || !tool) return Promise.resolve(undefined);
  const controller = new AbortController();
  const timer = new AbortController();
  const onAbort = () => controller.abort();
  batch.signal?.addEventListener('abort', onAbort, { once: true });
  let work: Promise<string | undefined>;
  try {
    work = simulate({ tool, redactedInput: batch.redact.value(state.input), signal: controller.signal });
  } catch {
    work = Promise.resolve(undefined);
  }
  const timeout = batch.clock
    .sleep(batch.simulationTimeoutMs ?? toolDefaults.simulationTimeoutMs, timer.signal)
    .then(
      () => {
        controller.abort();
        return undefined;
      },
      () => undefined,
    );
  return Promise.race([
    work.then(
      (text) => (typeof text === 'string' && text.trim() ? text.trim() : undefined),
      () => undefined,
    ),
    timeout,
  ]).finally(() => {
    timer.abort();
    batch.signal?.removeEventListener('abort', onAbort);
  });
}
