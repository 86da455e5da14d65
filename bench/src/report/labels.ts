/** How the report names each framework. */
import type { FrameworkId } from '../frameworks/framework.js';

/** In the scenario tables: the framework and the call measured. */
export const labels: Record<FrameworkId, string> = {
  flowstack: 'flowstack',
  'ai-sdk': 'Vercel AI SDK `generateText`',
  'openai-agents': 'OpenAI Agents SDK `run`',
  langgraph: 'LangGraph.js `createReactAgent`',
  mastra: 'Mastra `Agent.generate`',
};

/** Every peer the bench knows, in the report's order; a plan may measure fewer (`plan.peers`). */
export const peers: FrameworkId[] = ['ai-sdk', 'openai-agents', 'langgraph', 'mastra'];

/** In the summary: the framework alone. */
export const shortLabels: Record<FrameworkId, string> = {
  flowstack: 'flowstack',
  'ai-sdk': 'AI SDK',
  'openai-agents': 'OpenAI Agents SDK',
  langgraph: 'LangGraph.js',
  mastra: 'Mastra',
};
