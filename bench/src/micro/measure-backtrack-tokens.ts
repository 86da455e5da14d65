/**
 * The fixed failure scenario of issue 4's acceptance test ("backtrack: the next prompt is measurably
 * shorter than without cleaning", src/loop/run-skill-loop.test.ts), through the public `runSkillLoop`
 * with the scripted model of `flowstack/test`: `get_rate` times out, then fails `not_found` with a long
 * stack-trace-like message (the loop backtracks), then the model calls `lookup_rate_table` and
 * finishes. Run once with context cleaning on backtrack (the default) and once with
 * `cleanContextOnBacktrack: false`; the prompt of the model call after the backtrack is measured with
 * flowstack's `estimatePromptTokens` (four characters a token). Everything is scripted, so the counts
 * are deterministic; the scenario is run twice to check that.
 */
import { z } from 'zod';
import type { RunSkillLoopOptions } from '../../../dist/src/blocks.js';
import * as blocks from '../../../dist/src/blocks.js';
import type { ToolDefinition } from '../../../dist/src/index.js';
import * as root from '../../../dist/src/index.js';

import { createScriptedModel, type ScriptStep } from '../../../dist/src/test/index.js';
import type { BacktrackTokensReport } from './micro-jobs.js';

const flowstack = { ...root, ...blocks };

const { createToolSet, defineTool, estimatePromptTokens, measurePromptChars, redactSecrets, redactValue } =
  flowstack;

type ToolSchema = Parameters<typeof defineTool>[0]['input'];
type Prompt = Parameters<typeof estimatePromptTokens>[0];
type Model = RunSkillLoopOptions['model'];

/** The model call measured: the first one after the backtrack (the third call). */
const measuredCall = 2;

/** A failure as an upstream service reports it: a headline and fourteen stack frames. */
function upstreamFailure(category: string, headline: string): Error {
  const frames = Array.from(
    { length: 14 },
    (_, i) =>
      `    at handler${i} (/srv/rates-api/node_modules/gateway/lib/layer${i}.js:${100 + i * 7}:${13 + i})`,
  );
  return Object.assign(new Error(`${headline}\n${frames.join('\n')}`), { category });
}

/** `get_rate` fails twice (timeout, then not_found); the rate table always answers. */
function createCurrencyTools(): ToolDefinition[] {
  let getRateRuns = 0;
  const getRate = defineTool<unknown, unknown>({
    name: 'get_rate',
    description: 'Exchange rate between two currencies.',
    input: z.object({ from: z.string().length(3), to: z.string().length(3) }) as unknown as ToolSchema,
    timeoutMs: 600_000,
    execute: async () => {
      getRateRuns += 1;
      const headline =
        'rates-api responded 410 Gone: API version v1 was retired on 2025-01-01; use the rate table instead.';
      throw upstreamFailure(getRateRuns === 1 ? 'timeout' : 'not_found', headline);
    },
  });
  const lookupTable = defineTool<unknown, unknown>({
    name: 'lookup_rate_table',
    description: 'Reads the published daily rate table for a currency.',
    input: z.object({ currency: z.string().length(3) }) as unknown as ToolSchema,
    execute: async (input) => ({
      base: (input as { currency: string }).currency,
      rates: { NOK: 11.52, SEK: 11.3 },
    }),
  });
  const history = defineTool<unknown, unknown>({
    name: 'fetch_history',
    description: 'Historic rates for a currency pair.',
    input: z.object({ pair: z.string(), days: z.number().int().optional() }) as unknown as ToolSchema,
    execute: async (input) => ({ pair: (input as { pair: string }).pair, points: [] }),
  });
  return [getRate, lookupTable, history];
}

function script(): ScriptStep[] {
  const call = (toolName: string, input: unknown): ScriptStep => ({
    match: { phase: 'skill' },
    toolCalls: [{ toolName, input }],
  });
  return [
    call('get_rate', { from: 'EUR', to: 'NOK' }),
    call('get_rate', { from: 'EUR', to: 'NOK' }),
    call('lookup_rate_table', { currency: 'EUR' }),
    call('finish_skill', { outcome: 'success', data: { amount: 1152 } }),
  ];
}

interface RunFigures {
  prompt: Prompt;
  reported: number;
  outcome: string;
  backtrackedBefore: boolean;
}

async function runScenario(cleanContextOnBacktrack: boolean): Promise<RunFigures> {
  const scripted = createScriptedModel({ steps: script() });
  // The input tokens the scripted model reports for each call, read from its answers.
  const reported: number[] = [];
  const model: Model = {
    ...scripted,
    doGenerate: async (options) => {
      const answer = await scripted.doGenerate(options);
      reported.push(answer.usage.inputTokens.total ?? Number.NaN);
      return answer;
    },
    doStream: () => Promise.reject(new Error('The micro-benchmark expects generate calls only.')),
  };
  const result = await flowstack.runSkillLoop({
    model,
    prompt: [
      { role: 'system', content: 'You convert currencies. Use the tools; never invent rates.' },
      { role: 'user', content: [{ type: 'text', text: 'How much is 100 EUR in NOK?' }] },
    ],
    flow: 'convert',
    tools: createToolSet(createCurrencyTools()),
    batch: {
      threadId: 'micro-backtrack',
      turnId: 'turn-1',
      clock: flowstack.systemClock,
      maxContextChars: 1_500,
      redact: { text: redactSecrets, value: (v: unknown) => redactValue(v) },
    },
    cleanContextOnBacktrack,
  });
  const calls = scripted.calls;
  const prompt = calls[measuredCall]?.prompt;
  if (calls.length !== 4 || !prompt) {
    throw new Error(`Expected 4 model calls, the scenario made ${calls.length} (${result.outcome.outcome}).`);
  }
  // The backtrack happened after the second get_rate and before the measured call.
  const backtracks = result.events.filter((e) => e.type === 'backtrack').length;
  return {
    prompt,
    reported: reported[measuredCall] ?? Number.NaN,
    outcome: result.outcome.outcome,
    backtrackedBefore:
      backtracks === 1 && calls[measuredCall]?.toolNames.includes('lookup_rate_table') === true,
  };
}

export async function measureBacktrackTokens(): Promise<BacktrackTokensReport> {
  const measure = async () => {
    const cleaned = await runScenario(true);
    const raw = await runScenario(false);
    for (const run of [cleaned, raw]) {
      if (run.outcome !== 'success' || !run.backtrackedBefore) {
        throw new Error(`The backtrack scenario did not run as scripted (outcome ${run.outcome}).`);
      }
    }
    return {
      cleanedTokens: estimatePromptTokens(cleaned.prompt),
      rawTokens: estimatePromptTokens(raw.prompt),
      cleanedChars: measurePromptChars(cleaned.prompt),
      rawChars: measurePromptChars(raw.prompt),
      cleanedReported: cleaned.reported,
      rawReported: raw.reported,
      cleanedMessages: cleaned.prompt.length,
      rawMessages: raw.prompt.length,
      callIndex: measuredCall,
      outcomes: { cleaned: cleaned.outcome, raw: raw.outcome },
    };
  };
  const first = await measure();
  const second = await measure();
  return { ...first, repeatable: JSON.stringify(first) === JSON.stringify(second) };
}
