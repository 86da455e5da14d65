/**
 * The data-analysis example, ready to run: `flowstack run data-analysis "…"`, `flowstack chat data-analysis`.
 * A data-analysis assistant over a bundled SQLite dataset: query, chart, a price change that needs the
 * user's approval, clarifications, the staging-table fallback, and Internal flows in the background.
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import {
  type Agent,
  createAgent,
  type RateLimiter,
  resolveModelFromEnv,
  type StateStore,
} from '../../src/index.js';
import { type Dataset, openDataset } from './dataset.js';
import { createDataAnalysisDemoModel } from './demo-model.js';
import { dataAnalysisRules, loadDataAnalysisDomain } from './domain.js';

export interface DataAnalysisExample {
  agent: Agent;
  /** Which model answers, said on start. */
  modelDescription: string;
  dataset: Dataset;
  /** A conversation that shows the example's features. */
  demoConversation: string[];
}

export function createDataAnalysisExample(
  options: {
    store?: StateStore;
    /** Shared by every process of a deployment (`flowstack/redis`); default: this process's own. */
    rateLimiter?: RateLimiter;
    model?: LanguageModelV3;
    env?: NodeJS.ProcessEnv;
    /** The dataset file; `:memory:` for a private one. Defaults to `.flowstack/data-analysis.db`. */
    datasetPath?: string;
    ids?: Parameters<typeof createAgent>[0]['ids'];
    clock?: Parameters<typeof createAgent>[0]['clock'];
  } = {},
): DataAnalysisExample {
  const fromEnv = options.model ? undefined : resolveModelFromEnv(options.env ?? process.env);
  const model = options.model ?? fromEnv?.model ?? createDataAnalysisDemoModel();
  const modelDescription = options.model
    ? `${model.provider}:${model.modelId}`
    : (fromEnv?.description ??
      'the bundled scripted demo model (no LLM is called; set FLOWSTACK_MODEL to use one)');
  const dataset = openDataset(options.datasetPath);
  const domain = loadDataAnalysisDomain(dataset);
  const agent = createAgent({
    model,
    flows: domain.flows,
    tools: domain.tools,
    rules: dataAnalysisRules,
    ...(domain.persona ? { persona: domain.persona } : {}),
    ...(domain.description ? { domain: domain.description } : {}),
    ...(options.rateLimiter ? { toolPipeline: { rateLimiter: options.rateLimiter } } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.ids ? { ids: options.ids } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const close = agent.close;
  const demoConversation = [
    'chart revenue',
    'actually, first show me the top 3 products by revenue',
    'region',
    'how many orders are in staging_orders?',
    'raise the price of Widget by 10%',
    'yes',
  ];
  return {
    agent: {
      ...agent,
      close: async () => {
        await close();
        dataset.close();
      },
    },
    modelDescription,
    dataset,
    demoConversation,
  };
}
