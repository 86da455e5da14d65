/**
 * How much of flowstack's per-step cost is the skill loop itself: `runSkillLoop` with the tool pipeline,
 * the bench's three tools and the same scripted model, but without the agent around it (no routing,
 * thread commits, telemetry or model-answer journal). Prints CPU and wall time per step.
 *
 *   npm run build --prefix .. && npm run build && node probes/loop-alone.mjs [K=10] [store]
 *
 * `store` adds the memory store, so that tool calls are journaled as in the agent.
 */
import * as blocks from '../../dist/src/blocks.js';
import * as root from '../../dist/src/index.js';

const flowstack = { ...root, ...blocks };

import { createScriptedModel } from '../../dist/src/test/index.js';
import { nextAction, parsePlan, requestFor } from '../dist/shared/plan.js';
import { addTool, lookupTool, upperTool } from '../dist/shared/tools.js';

const k = Number(process.argv[2] ?? 10);
const store = process.argv[3] === 'store' ? flowstack.createMemoryStore() : undefined;
const tools = flowstack.createToolSet(
  [addTool, upperTool, lookupTool].map((tool) =>
    flowstack.defineTool({
      name: tool.name,
      description: tool.description,
      input: tool.input,
      output: tool.output,
      idempotent: true,
      execute: (input) => tool.execute(input),
    }),
  ),
);
const request = requestFor({ kind: 'chain', toolCalls: k });
const model = createScriptedModel({
  defaultUsage: { inputTokens: 10, outputTokens: 5 },
  steps: [
    {
      repeat: true,
      respond: ({ prompt }) => {
        const done = prompt.filter((m) => m.role === 'tool').reduce((n, m) => n + m.content.length, 0);
        const action = nextAction(parsePlan(request), done);
        if (action.kind === 'answer') return { text: action.text };
        return {
          toolCalls: action.calls.map(({ toolName, input, callId }) => ({ toolName, input, callId })),
        };
      },
    },
  ],
});

let runs = 0;
async function session() {
  runs += 1;
  const { outcome } = await flowstack.runSkillLoop({
    model,
    prompt: [
      { role: 'system', content: 'Call the tools the request asks for, one per step, then answer.' },
      { role: 'user', content: [{ type: 'text', text: request }] },
    ],
    tools,
    batch: {
      threadId: `t${runs}`,
      turnId: `turn${runs}`,
      clock: flowstack.systemClock,
      store,
      maxContextChars: 1500,
      redact: { text: flowstack.redactSecrets, value: flowstack.redactValue },
    },
    limits: { maxIterations: k + 5, maxTurns: k + 5, confirmEveryTurns: 0 },
  });
  if (outcome.outcome !== 'success') throw new Error(`The loop ended ${outcome.outcome}.`);
  model.calls.splice(0);
}

for (let i = 0; i < 300; i++) await session();
const sessions = 500;
const cpu = process.cpuUsage();
const start = performance.now();
for (let i = 0; i < sessions; i++) await session();
const used = process.cpuUsage(cpu);
const steps = sessions * (k + 1);
const wall = ((performance.now() - start) * 1000) / steps;
console.log(
  `K = ${k}${store ? ', memory store' : ''}: ${((used.user + used.system) / steps).toFixed(1)} µs CPU, ${wall.toFixed(1)} µs wall per step`,
);
