/**
 * The examples the command line can run, by name.
 */
import { dirname, join } from 'node:path';
import { createDataAnalysisExample } from '../../examples/data-analysis/index.js';
import { createOperationsExample } from '../../examples/operations/index.js';
import { bookFlightFlow, searchFlightsFlow } from '../../examples/travel/domain.js';
import { createTravelExample } from '../../examples/travel/index.js';
import type { Agent } from '../agent/index.js';
import type { RateLimiter, StateStore } from '../spec/index.js';

export interface CliExample {
  agent: Agent;
  /** Which model answers, said on start. */
  modelDescription: string;
  demoConversation: string[];
}

export interface CliExampleEntry {
  description: string;
  /** `db` is the store's file; an example keeps its own files beside it. */
  create(options: {
    store: StateStore;
    env: NodeJS.ProcessEnv;
    db: string;
    /** A limiter shared by every process (`REDIS_URL`); default: the agent's own, in memory. */
    rateLimiter?: RateLimiter;
  }): CliExample | Promise<CliExample>;
  /** The A2A card's skills: the user-facing flows. */
  skills: Array<{ id: string; description: string; examples?: string[] }>;
}

export const cliExamples: Record<string, CliExampleEntry> = {
  travel: {
    description: 'A travel desk: finds and books flights.',
    create: ({ store, env, rateLimiter }) =>
      createTravelExample({ store, env, ...(rateLimiter ? { rateLimiter } : {}) }),
    skills: [searchFlightsFlow, bookFlightFlow].map((flow) => ({
      id: flow.name,
      description: flow.description,
    })),
  },
  'data-analysis': {
    description: 'A data-analysis assistant over a bundled SQLite dataset of sales.',
    create: ({ store, env, db, rateLimiter }) =>
      createDataAnalysisExample({
        store,
        env,
        datasetPath: join(dirname(db), 'data-analysis.db'),
        ...(rateLimiter ? { rateLimiter } : {}),
      }),
    skills: [
      { id: 'query-data', description: 'Answer a question about the data with one read-only SQL query.' },
      { id: 'make-chart', description: 'Chart a measure of the sales, grouped by region, product or month.' },
      { id: 'change-price', description: 'Change the unit price of a product by a percentage.' },
      {
        id: 'create-staging-table',
        description: 'Create an empty staging table for data that does not exist yet.',
      },
    ],
  },
  operations: {
    description: 'An operations assistant working on files through the MCP filesystem server.',
    create: ({ store, env, db, rateLimiter }) =>
      createOperationsExample({
        store,
        env,
        workspace: join(dirname(db), 'operations-workspace'),
        ...(rateLimiter ? { rateLimiter } : {}),
      }),
    skills: [
      { id: 'inspect_files', description: 'Show a file or list a folder of the workspace.' },
      { id: 'update_config', description: 'Change one setting in a configuration file.' },
      { id: 'notify_team', description: 'Tell the team what a file says (for example an incident log).' },
    ],
  },
};
