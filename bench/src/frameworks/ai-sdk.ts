/**
 * The Vercel AI SDK: `generateText` with `tool()` definitions and `stopWhen: stepCountIs(n)`; the model
 * is `MockLanguageModelV3` from `ai/test`. The AI SDK has no thread store, so it runs in memory only.
 */
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { timeModel } from '../shared/meter.js';
import { isRequest, nextAction, parsePlan } from '../shared/plan.js';
import { addTool, lookupTool, upperTool } from '../shared/tools.js';
import type { AgentSetup, BenchAgent, Framework } from './framework.js';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function respond(options: CallOptions) {
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
  const action = nextAction(parsePlan(request), done);
  if (action.kind === 'answer') {
    return {
      content: [{ type: 'text' as const, text: action.text }],
      finishReason: { unified: 'stop' as const, raw: 'stop' },
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
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

const tools = {
  add: tool({
    description: addTool.description,
    inputSchema: addTool.input,
    execute: (input) => addTool.execute(input),
  }),
  upper: tool({
    description: upperTool.description,
    inputSchema: upperTool.input,
    execute: (input) => upperTool.execute(input),
  }),
  lookup: tool({
    description: lookupTool.description,
    inputSchema: lookupTool.input,
    execute: (input) => lookupTool.execute(input),
  }),
};

async function createBenchAgent(setup: AgentSetup): Promise<BenchAgent> {
  if (setup.persistence !== 'none') throw new Error('The AI SDK has no thread store.');
  const model = new MockLanguageModelV3({ doGenerate: async (options) => timeModel(() => respond(options)) });
  const run = async (_threadId: string, request: string) => {
    const result = await generateText({
      model,
      tools,
      prompt: request,
      stopWhen: stepCountIs(setup.maxSteps),
    });
    return result.text;
  };
  return {
    run,
    resume: () => Promise.reject(new Error('The AI SDK cannot resume a thread.')),
    clearMockLog: () => void model.doGenerateCalls.splice(0),
    describePersistence: async () => 'none (the AI SDK keeps no thread state)',
    close: async () => {},
  };
}

export const aiSdk: Framework = {
  id: 'ai-sdk',
  label: 'Vercel AI SDK',
  packages: ['ai'],
  persistence: ['none'],
  createAgent: createBenchAgent,
};
