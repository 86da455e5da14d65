/**
 * What the memory store holds for one session of the bench's sessions scenario (4 tool calls, then the
 * answer): at its third tool call, and once it has finished. JSON characters of the snapshot and of the
 * history, observation and journal rows. The agent is built as in `src/frameworks/flowstack.ts`, on a
 * memory store this probe can read.
 *
 *   npm run build --prefix .. && npm run build && node probes/store-in-flight.mjs
 */
import * as flowstack from '../../dist/src/index.js';
import { createScriptedModel } from '../../dist/src/test/index.js';
import { isRequest, nextAction, parsePlan, requestFor } from '../dist/shared/plan.js';
import { addTool, lookupTool, upperTool } from '../dist/shared/tools.js';

const store = flowstack.createMemoryStore();
const threadId = 'probe';
let calls = 0;

async function describe(when) {
  const thread = await store.loadThread(threadId);
  const history = await store.readHistory(threadId);
  const observations = await store.readObservations(threadId, {});
  const journal = await store.listJournal(threadId);
  const size = (rows) => JSON.stringify(rows).length;
  const snapshot = thread?.data.length ?? 0;
  const total = snapshot + size(history) + size(observations) + size(journal);
  console.log(
    `${when}: snapshot ${snapshot}, history ${history.length} rows ${size(history)}, observations ` +
      `${observations.length} rows ${size(observations)}, journal ${journal.length} rows ${size(journal)}; ` +
      `${total} characters in all`,
  );
}

const tools = [addTool, upperTool, lookupTool].map((tool) =>
  flowstack.defineTool({
    name: tool.name,
    description: tool.description,
    input: tool.input,
    output: tool.output,
    idempotent: true,
    execute: async (input) => {
      calls += 1;
      if (calls === 3) await describe('at the third tool call');
      return tool.execute(input);
    },
  }),
);
const model = createScriptedModel({
  defaultUsage: { inputTokens: 10, outputTokens: 5 },
  steps: [
    {
      match: { phase: 'skill' },
      repeat: true,
      respond: ({ prompt }) => {
        let request = '';
        let done = 0;
        for (const message of prompt) {
          if (message.role === 'user') {
            const text = message.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
            if (isRequest(text)) {
              request = text;
              done = 0;
            }
          } else if (message.role === 'tool') done += message.content.length;
        }
        const action = nextAction(parsePlan(request), done);
        if (action.kind === 'answer') return { text: action.text };
        return {
          toolCalls: action.calls.map(({ toolName, input, callId }) => ({ toolName, input, callId })),
        };
      },
    },
  ],
});
const agent = flowstack.createAgent({
  model,
  store,
  tools,
  flows: [
    flowstack.defineFlow({
      name: 'bench_steps',
      intent: 'read',
      description: 'Run the benchmark steps.',
      tools: ['add', 'upper', 'lookup'],
      skill: 'Call the tools the request asks for, one per step, then answer.',
    }),
  ],
  rules: [{ pattern: /^(chain|parallel) \d+$/, flow: 'bench_steps' }],
  execution: { maxIterations: 10, maxTurns: 11, confirmEveryTurns: 0 },
});
const turn = await agent.send({ threadId, text: requestFor({ kind: 'chain', toolCalls: 4 }) });
if (turn.status !== 'completed') throw new Error(`The session ended ${turn.status}.`);
await describe('finished');
await agent.close();
