import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { ProxyTracerProvider } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type { Observation } from '../spec/index.js';
import { createScriptedModel } from '../test/index.js';
import { createTurnTelemetry } from './create-turn-telemetry.js';

const call: LanguageModelV3CallOptions = {
  prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  providerOptions: { flowstack: { phase: 'skill', flow: 'greet' } },
};

/** Telemetry with no SDK behind it (nothing records) and a switch for whether anyone listens. */
function quietTelemetry() {
  const published: Observation[] = [];
  let listening = false;
  const telemetry = createTurnTelemetry({
    tracer: new ProxyTracerProvider().getTracer('test'),
    agentName: 'test',
    threadId: 't1',
    turnId: 'turn-1',
    clock: { now: () => 1_000, sleep: () => Promise.resolve() },
    redact: { text: (text) => text, value: (value) => value },
    publish: (observations) => published.push(...observations),
    wantsProgress: () => listening,
  });
  return { telemetry, published, listen: () => (listening = true) };
}

function throwingModel(): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'throws',
    supportedUrls: {},
    doGenerate: () => {
      throw new Error('no connection');
    },
    doStream: () => {
      throw new Error('no connection');
    },
  };
}

describe('createTurnTelemetry with nothing recording', () => {
  it('reports the calls that start once someone listens, and nothing before', async () => {
    const { telemetry, published, listen } = quietTelemetry();
    const model = telemetry.wrapModel(createScriptedModel({ steps: [{ text: 'one' }, { text: 'two' }] }));
    const tool = { tool: { name: 'echo', description: 'Echoes.' }, input: { text: 'x' }, callId: 'c1' };

    const first = await model.doGenerate(call);
    expect(first.content).toEqual([{ type: 'text', text: 'one' }]);
    await expect(telemetry.observeTool(tool, () => 'unseen')).resolves.toBe('unseen');
    expect(published).toEqual([]);

    listen();
    await model.doGenerate(call);
    await telemetry.observeTool({ ...tool, callId: 'c2' }, () => Promise.resolve('seen'));
    expect(published.map((o) => o.type)).toEqual([
      'model-stream-start',
      'model-stream-metadata',
      'model-stream-end',
      'tool-call',
      'tool-execution',
    ]);
    expect(published[4]?.data).toMatchObject({ callId: 'c2', toolName: 'echo', status: 'success' });
  });

  it('turns a model or a tool that throws instead of rejecting into a rejected promise', async () => {
    const { telemetry } = quietTelemetry();
    const model = telemetry.wrapModel(throwingModel());
    const generated = model.doGenerate(call);
    const streamed = model.doStream(call);
    const executed = telemetry.observeTool(
      { tool: { name: 'boom', description: 'Throws.' }, input: {}, callId: 'c1' },
      () => {
        throw new Error('tool broke');
      },
    );
    await expect(generated).rejects.toThrow('no connection');
    await expect(streamed).rejects.toThrow('no connection');
    await expect(executed).rejects.toThrow('tool broke');
  });
});
