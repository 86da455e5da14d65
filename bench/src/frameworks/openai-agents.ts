/**
 * The OpenAI Agents SDK: an `Agent` with `tool()` definitions (Zod `parameters`), run by `run()` with
 * `maxTurns`. The SDK ships no mock model, so the model is a minimal implementation of its `Model`
 * interface (`getResponse`), as its own tests do. Tracing is turned off: with no OpenAI key it could
 * only fail to export, and the other frameworks run without a tracer too.
 */
import {
  Agent,
  type Model,
  type ModelRequest,
  type ModelResponse,
  run,
  setTracingDisabled,
  tool,
  Usage,
} from '@openai/agents';
import { timeModel } from '../shared/meter.js';
import { isRequest, nextAction, parsePlan } from '../shared/plan.js';
import { addTool, lookupTool, upperTool } from '../shared/tools.js';
import type { AgentSetup, BenchAgent, Framework } from './framework.js';

setTracingDisabled(true);

function respond(request: ModelRequest): ModelResponse {
  const input =
    typeof request.input === 'string' ? [{ role: 'user' as const, content: request.input }] : request.input;
  let text = '';
  let done = 0;
  for (const item of input) {
    if ('role' in item && item.role === 'user') {
      const content =
        typeof item.content === 'string'
          ? item.content
          : item.content.map((c) => ('text' in c ? c.text : '')).join('');
      if (isRequest(content)) {
        text = content;
        done = 0;
      }
    } else if (item.type === 'function_call_result') {
      done++;
    }
  }
  const action = nextAction(parsePlan(text), done);
  const usage = new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 });
  if (action.kind === 'answer') {
    return {
      usage,
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: action.text }],
        },
      ],
    };
  }
  return {
    usage,
    output: action.calls.map((c) => ({
      type: 'function_call' as const,
      callId: c.callId,
      name: c.toolName,
      status: 'completed' as const,
      arguments: JSON.stringify(c.input),
    })),
  };
}

function createMockModel(): Model & { calls: ModelRequest[] } {
  const calls: ModelRequest[] = [];
  return {
    calls,
    getResponse: async (request) => {
      calls.push(request);
      return timeModel(() => respond(request));
    },
    // biome-ignore lint/correctness/useYield: the scenario never streams.
    getStreamedResponse: async function* () {
      throw new Error('The benchmark does not stream.');
    },
  };
}

const tools = [
  tool({
    name: 'add',
    description: addTool.description,
    parameters: addTool.input,
    execute: (input) => addTool.execute(input),
  }),
  tool({
    name: 'upper',
    description: upperTool.description,
    parameters: upperTool.input,
    execute: (input) => upperTool.execute(input),
  }),
  tool({
    name: 'lookup',
    description: lookupTool.description,
    parameters: lookupTool.input,
    execute: (input) => lookupTool.execute(input),
  }),
];

async function createBenchAgent(setup: AgentSetup): Promise<BenchAgent> {
  if (setup.persistence !== 'none') throw new Error('The OpenAI Agents SDK runs in memory here.');
  const model = createMockModel();
  const agent = new Agent({
    name: 'bench',
    instructions: 'Call the tools the request asks for, one per step, then answer.',
    model,
    tools,
  });
  return {
    run: async (_threadId, request) => {
      const result = await run(agent, request, { maxTurns: setup.maxSteps });
      return String(result.finalOutput);
    },
    resume: () => Promise.reject(new Error('Not measured for the OpenAI Agents SDK.')),
    clearMockLog: () => void model.calls.splice(0),
    describePersistence: async () => 'none (in memory)',
    close: async () => {},
  };
}

export const openaiAgents: Framework = {
  id: 'openai-agents',
  label: 'OpenAI Agents SDK',
  packages: ['@openai/agents', '@openai/agents-core', 'openai'],
  persistence: ['none'],
  createAgent: createBenchAgent,
};
