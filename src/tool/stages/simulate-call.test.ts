import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { secrets } from '../../redact/fixtures/fake-secrets.js';
import { createScriptedModel } from '../../test/index.js';
import { createMemorySimulationCache } from '../create-memory-simulation-cache.js';
import { createModelSimulator } from '../create-model-simulator.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext, deferred } from '../fixtures/batch-context.js';
import type { Simulator } from '../tool-batch-context.js';

const input = z.object({ account: z.string(), amount: z.number() });
const prediction = 'The transfer moves money irreversibly. Risk: the wrong account receives it.';

function transfer(capability: 'controlled' | 'restricted' | 'privileged', output = 'transferred') {
  return defineTool({
    name: 'transfer',
    description: 'Moves money.',
    input,
    capability,
    execute: () => output,
  });
}

describe('simulation stage (through executeToolBatch)', () => {
  it('predicts a privileged call with the model on redacted arguments and appends it after the result', async () => {
    const model = createScriptedModel({ steps: [{ match: { phase: 'simulate' }, text: prediction }] });
    const context = createTestContext([transfer('privileged')], {
      simulate: createModelSimulator({ model, cache: createMemorySimulationCache() }),
    });
    const [result] = await executeToolBatch(
      [call('transfer', { account: `acct with key ${secrets.stripeLive}`, amount: 5 })],
      context,
    );
    expect(result).toMatchObject({ status: 'success', output: 'transferred', simulation: prediction });
    expect(result?.contextText).toBe(`transferred\n[ANTICIPATORY SIMULATION]: ${prediction}`);
    const asked = JSON.stringify(model.calls[0]?.prompt);
    expect(asked).toContain('transfer');
    expect(asked).toContain('[REDACTED:stripe-key]');
    expect(asked).not.toContain(secrets.stripeLive);
  });

  it('keeps the simulation when the result is cut, and does not store it in the journal', async () => {
    const model = createScriptedModel({ steps: [{ match: { phase: 'simulate' }, text: prediction }] });
    const context = createTestContext([transfer('restricted', 'y'.repeat(5_000))], {
      simulate: createModelSimulator({ model }),
    });
    const [result] = await executeToolBatch([call('transfer', { account: 'a', amount: 1 })], context);
    expect(result?.contextText.endsWith(`[ANTICIPATORY SIMULATION]: ${prediction}`)).toBe(true);
    expect(result?.contextText).toContain('characters omitted');
    expect(JSON.stringify(await context.store?.listJournal('thread-1'))).not.toContain('ANTICIPATORY');
  });

  it('reuses a prediction for the same redacted call within five minutes, and asks again after', async () => {
    const model = createScriptedModel({
      steps: [{ match: { phase: 'simulate' }, text: prediction, repeat: true }],
    });
    const context = createTestContext([transfer('privileged')], { store: undefined });
    const simulate = createModelSimulator({
      model,
      cache: createMemorySimulationCache({ clock: context.clock }),
    });
    const run = (id: string, amount = 1) =>
      executeToolBatch([call('transfer', { account: 'a', amount }, id)], { ...context, simulate });
    await run('c1');
    await run('c2');
    expect(model.calls).toHaveLength(1);
    await run('c3', 2);
    expect(model.calls).toHaveLength(2);
    await context.clock.advance(5 * 60 * 1000);
    await run('c4');
    expect(model.calls).toHaveLength(3);
  });

  it('does not simulate safe or controlled calls', async () => {
    let asked = 0;
    const simulate: Simulator = async () => {
      asked++;
      return 'x';
    };
    const [result] = await executeToolBatch(
      [call('transfer', { account: 'a', amount: 1 })],
      createTestContext([transfer('controlled')], { simulate }),
    );
    expect(asked).toBe(0);
    expect(result).not.toHaveProperty('simulation');
  });

  it('is advisory: a failing simulator changes nothing', async () => {
    const simulate: Simulator = () => Promise.reject(new Error('model down'));
    const [result] = await executeToolBatch(
      [call('transfer', { account: 'a', amount: 1 })],
      createTestContext([transfer('privileged')], { simulate }),
    );
    expect(result).toEqual({
      status: 'success',
      callId: 'call-transfer',
      toolName: 'transfer',
      output: 'transferred',
      contextText: 'transferred',
    });
  });

  it('is bounded: a simulator that hangs is abandoned at its timeout and the result comes back', async () => {
    const aborted = deferred<boolean>();
    const simulate: Simulator = ({ signal }) =>
      new Promise(() => signal.addEventListener('abort', () => aborted.resolve(true)));
    const context = createTestContext([transfer('privileged')], { simulate, simulationTimeoutMs: 2_000 });
    const [result] = await context.clock.runUntil(
      executeToolBatch([call('transfer', { account: 'a', amount: 1 })], context),
    );
    expect(result?.status).toBe('success');
    expect(await aborted.promise).toBe(true);
  });

  it('never blocks the call: the tool runs while the simulation is still thinking', async () => {
    const thinking = deferred<string>();
    const ran = deferred();
    const tool = defineTool({
      name: 'transfer',
      description: 'Moves money.',
      input,
      capability: 'privileged',
      execute: () => {
        ran.resolve();
        return 'transferred';
      },
    });
    const pending = executeToolBatch(
      [call('transfer', { account: 'a', amount: 1 })],
      createTestContext([tool], { simulate: () => thinking.promise }),
    );
    await ran.promise;
    thinking.resolve('late but useful');
    const [result] = await pending;
    expect(result).toMatchObject({ status: 'success', simulation: 'late but useful' });
  });
});
