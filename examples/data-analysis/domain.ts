/**
 * The data-analysis domain, loaded from its skills directory (one SKILL.md per flow) with the tools
 * over the dataset. Hooks are code, so they are given here: the query's hard-coded fallback (a query on
 * a table that does not exist yet is redirected to creating it as a staging table — seed 000's worked
 * example) and the background Internal flows a price change starts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Domain,
  type FastPathRule,
  type FlowHooks,
  loadDomain,
  type ToolDefinition,
} from '../../src/index.js';
import type { Dataset } from './dataset.js';
import { createDataTools } from './tools.js';

/** The SKILL.md files live with the sources; a build (dist/examples/…) finds them there. */
export const skillsDirectory = [
  join(import.meta.dirname, 'skills'),
  join(import.meta.dirname, '..', '..', '..', 'examples', 'data-analysis', 'skills'),
].find((dir) => existsSync(dir)) as string;

export const dataAnalysisHooks: Record<string, FlowHooks> = {
  query_data: {
    fallback: ({ outcome }) => {
      if (outcome.outcome !== 'failure') return undefined;
      const missing = /no such table: (\w+)/.exec(outcome.message)?.[1];
      if (!missing) return undefined;
      return {
        flow: 'create_staging_table',
        slots: { table: missing },
        reason: `the table ${missing} does not exist yet, so it is created as a staging table first`,
      };
    },
  },
  change_price: {
    afterComplete: () => ({
      schedule: [
        { flow: 'profile_table', slots: { table: 'products' } },
        { flow: 'peek_rows', slots: { table: 'products' }, dependsOn: ['profile_table'] },
      ],
    }),
  },
};

export function loadDataAnalysisDomain(db: Dataset): Domain<ToolDefinition> {
  return loadDomain({
    dir: skillsDirectory,
    name: 'data-analysis',
    description: 'A data-analysis assistant over a small sales dataset (tables sales and products).',
    tools: createDataTools(db),
    hooks: dataAnalysisHooks,
    persona: 'You are a careful data analyst. Answer only from query results; never invent numbers.',
  });
}

/** Fast paths: these messages are routed without a model call. */
export const dataAnalysisRules: FastPathRule[] = [
  {
    pattern: /^show (?:me )?(?:the )?(?<table>sales|products)(?: table)?[.!]?$/i,
    flow: 'query_data',
    slots: { question: 'Show the rows' },
  },
  {
    pattern: /^chart (?<measure>units|revenue)(?: by (?<group_by>region|product|month))?[.!]?$/i,
    flow: 'make_chart',
  },
];
