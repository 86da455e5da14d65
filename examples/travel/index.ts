/**
 * The travel desk example, ready to run: `flowstack chat travel`, `flowstack run travel "…"`.
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import {
  type Agent,
  createAgent,
  type RateLimiter,
  resolveModelFromEnv,
  type StateStore,
} from '../../src/index.js';
import { createTravelDemoModel } from './demo-model.js';
import {
  bookFlightFlow,
  createBookFlightTool,
  findFlightsTool,
  searchFlightsFlow,
  travelRules,
} from './domain.js';

export interface TravelExample {
  agent: Agent;
  /** Which model answers, said on start. */
  modelDescription: string;
  bookings: Array<{ flight_id: string; passenger: string; reference: string }>;
  /** A conversation that shows the example's features, for `flowstack demo`. */
  demoConversation: string[];
}

export function createTravelExample(
  options: {
    store?: StateStore;
    model?: LanguageModelV3;
    env?: NodeJS.ProcessEnv;
    /** Shared by every process of a deployment (`flowstack/redis`); default: this process's own. */
    rateLimiter?: RateLimiter;
  } = {},
): TravelExample {
  const fromEnv = options.model ? undefined : resolveModelFromEnv(options.env ?? process.env);
  const model = options.model ?? fromEnv?.model ?? createTravelDemoModel();
  const modelDescription = options.model
    ? `${model.provider}:${model.modelId}`
    : (fromEnv?.description ??
      'the bundled scripted demo model (no LLM is called; set FLOWSTACK_MODEL to use one)');
  const bookings: TravelExample['bookings'] = [];
  const agent = createAgent({
    model,
    flows: [searchFlightsFlow, bookFlightFlow],
    tools: [findFlightsTool, createBookFlightTool(bookings)],
    rules: travelRules,
    // "Plan a trip to Lisbon on 2026-12-05 and book the cheapest flight for Ada Lovelace" becomes a plan.
    plan: { treeSearch: 'off' },
    toolPipeline: {
      // Bookings (restricted) wait for a person's approval: in the chat ("yes"), the web page or the CLI.
      capabilities: { approvalFrom: 'restricted' },
      // The scripted demo model does not predict effects; a real model does (advisory simulation).
      ...(options.model || fromEnv ? {} : { simulate: undefined }),
      ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
    },
    persona: 'You are a travel desk assistant. Be brief. Never invent flights: use the tools.',
    ...(options.store ? { store: options.store } : {}),
  });
  const demoConversation = [
    'I want to fly to Lisbon',
    '2026-12-05',
    'book TP1351 for Ada Lovelace',
    'yes',
    'Plan a trip to Paris on 2026-12-07 and book the cheapest flight for Grace Hopper',
    'yes',
  ];
  return { agent, modelDescription, bookings, demoConversation };
}
