/**
 * Mastra: an `Agent` with `createTool` tools (Zod `inputSchema` and `outputSchema`), run by
 * `agent.generate(request, { maxSteps })`. Mastra 0.24 takes AI SDK v5 models, so the model is
 * `MockLanguageModelV2` from AI SDK 5's `ai/test` (installed as `ai-v5`, the version Mastra itself uses).
 * Mastra 1.x needs Node ≥ 22.13, so 0.24.9, its last release for Node 20, is measured.
 */
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { MockLanguageModelV2 } from 'ai-v5/test';
import { timeModel } from '../shared/meter.js';
import { isRequest, type NextAction, nextAction, parsePlan } from '../shared/plan.js';
import { addTool, lookupTool, upperTool } from '../shared/tools.js';
import type { AgentSetup, BenchAgent, Framework } from './framework.js';

type CallOptions = Parameters<MockLanguageModelV2['doGenerate']>[0];

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

function decide(options: CallOptions): NextAction {
  let request = '';
  let done = 0;
  for (const message of options.prompt) {
    if (message.role === 'user') {
      const text = message.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
      if (isRequest(text)) {
        request = text;
        done = 0;
      }
    } else if (message.role === 'tool') {
      done += message.content.filter((p) => p.type === 'tool-result').length;
    }
  }
  return nextAction(parsePlan(request), done);
}

function generate(options: CallOptions) {
  const action = decide(options);
  if (action.kind === 'answer') {
    return {
      content: [{ type: 'text' as const, text: action.text }],
      finishReason: 'stop' as const,
      usage,
      warnings: [],
    };
  }
  return {
    content: action.calls.map((c) => ({
      type: 'tool-call' as const,
      toolCallId: c.callId,
      toolName: c.toolName,
      input: JSON.stringify(c.input),
    })),
    finishReason: 'tool-calls' as const,
    usage,
    warnings: [],
  };
}

function stream(options: CallOptions) {
  const action = decide(options);
  type Part = Parameters<ReadableStreamDefaultController['enqueue']>[0];
  const parts: Part[] = [{ type: 'stream-start', warnings: [] }];
  if (action.kind === 'answer') {
    parts.push(
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: action.text },
      { type: 'text-end', id: 't1' },
    );
  } else {
    for (const c of action.calls) {
      parts.push({
        type: 'tool-call',
        toolCallId: c.callId,
        toolName: c.toolName,
        input: JSON.stringify(c.input),
      });
    }
  }
  parts.push({ type: 'finish', finishReason: action.kind === 'answer' ? 'stop' : 'tool-calls', usage });
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

const tools = {
  add: createTool({
    id: 'add',
    description: addTool.description,
    inputSchema: addTool.input,
    outputSchema: addTool.output,
    execute: ({ context }) => addTool.execute(context),
  }),
  upper: createTool({
    id: 'upper',
    description: upperTool.description,
    inputSchema: upperTool.input,
    outputSchema: upperTool.output,
    execute: ({ context }) => upperTool.execute(context),
  }),
  lookup: createTool({
    id: 'lookup',
    description: lookupTool.description,
    inputSchema: lookupTool.input,
    outputSchema: lookupTool.output,
    execute: ({ context }) => lookupTool.execute(context),
  }),
};

async function createBenchAgent(setup: AgentSetup): Promise<BenchAgent> {
  if (setup.persistence !== 'none') throw new Error('Mastra runs in memory here.');
  const model = new MockLanguageModelV2({
    doGenerate: async (options) => timeModel(() => generate(options)),
    doStream: async (options) =>
      timeModel(() => stream(options)) as Awaited<ReturnType<MockLanguageModelV2['doStream']>>,
  });
  const agent = new Agent({
    name: 'bench',
    instructions: 'Call the tools the request asks for, one per step, then answer.',
    model,
    tools,
  });
  return {
    run: async (_threadId, request) => {
      const result = await agent.generate(request, { maxSteps: setup.maxSteps });
      return result.text;
    },
    resume: () => Promise.reject(new Error('Not measured for Mastra.')),
    clearMockLog: () => {
      model.doGenerateCalls.splice(0);
      model.doStreamCalls.splice(0);
    },
    describePersistence: async () => 'none (no memory configured)',
    close: async () => {},
  };
}

export const mastra: Framework = {
  id: 'mastra',
  label: 'Mastra',
  packages: ['@mastra/core'],
  persistence: ['none'],
  createAgent: createBenchAgent,
};
