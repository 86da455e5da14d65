/**
 * One test per bound of the skill loop (DESIGN.md invariant 9): the same scripted run, once with the
 * defaults and once with the bound set, observably differs. The cases are a `Record` over the bounds, so
 * a bound added to the table without a test here does not compile.
 */
import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../errors/index.js';
import type { ScriptStep } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { createCurrencyTools, upstreamTrace } from './fixtures/currency-tools.js';
import { createManualClock } from './fixtures/manual-clock.js';
import { call, finish, type HarnessOptions, runSkill, startSkill } from './fixtures/skill-harness.js';
import type { SkillLoopLimits } from './skill-loop-limits.js';

interface BoundCase {
  /** The value the bound is set to. */
  value: number;
  /** Other bounds of both runs, so that only this one decides. */
  base?: Partial<SkillLoopLimits>;
  /** Runs the scenario with the given limits and returns what the bound changes. */
  observe(limits: Partial<SkillLoopLimits>): Promise<unknown>;
  /** What `observe` returns with the defaults, and with the bound set. */
  defaults: unknown;
  set: unknown;
}

const rateLimited = () =>
  new APICallError({
    message: 'Rate limit reached',
    url: 'https://models.example/v1/chat',
    requestBodyValues: {},
    statusCode: 429,
    isRetryable: true,
  });

/** A model that calls `get_rate` for a new currency at every step and never finishes. */
function endlessRates(): ScriptStep {
  let n = 0;
  return {
    match: { phase: 'skill' },
    repeat: true,
    respond: () => {
      n += 1;
      const to = `${String.fromCharCode(65 + (n % 26))}${String.fromCharCode(65 + ((n / 26) | 0))}X`;
      return { toolCalls: [{ toolName: 'get_rate', input: { from: 'EUR', to } }] };
    },
  };
}

/** Every step calls a tool that is not offered (a failed step the loop continues after), with new input each time. */
function unknownToolCalls(): ScriptStep {
  let n = 0;
  return {
    match: { phase: 'skill' },
    repeat: true,
    respond: (options) =>
      (options.tools ?? []).length === 0
        ? { text: 'That tool does not exist; I will try again.' }
        : { toolCalls: [{ toolName: 'get_rates', input: { n: ++n } }] },
  };
}

async function run(options: HarnessOptions) {
  return runSkill({ tools: createCurrencyTools().tools, ...options });
}

/** `get_rate` fails as "not found" every time (a systematic failure: the loop backtracks at once). */
function goneRates() {
  const gone = { category: 'not_found', message: 'no such pair' };
  return createCurrencyTools({ failures: Array.from({ length: 40 }, () => gone) }).tools;
}

/** A tool that takes `ms` on the run's clock. */
function slowTool(clock: ReturnType<typeof createManualClock>, ms: number) {
  return defineTool({
    name: 'slow_rate',
    description: 'A slow rate source.',
    input: z.object({ n: z.number() }),
    idempotent: true,
    timeoutMs: 600_000,
    execute: async ({ n }) => {
      await clock.sleep(ms);
      return { n, rate: 11.5 };
    },
  });
}

function slowCalls(): ScriptStep {
  let n = 0;
  return {
    match: { phase: 'skill' },
    repeat: true,
    respond: () => ({ toolCalls: [{ toolName: 'slow_rate', input: { n: ++n } }] }),
  };
}

const category = (outcome: { outcome: string; errorCategory?: string }) =>
  outcome.outcome === 'failure' ? outcome.errorCategory : outcome.outcome;

const cases: Record<keyof SkillLoopLimits, BoundCase> = {
  maxIterations: {
    value: 2,
    observe: async (limits) => (await run({ limits, steps: [endlessRates()] })).model.callCount,
    defaults: 5,
    set: 2,
  },
  maxTurns: {
    value: 3,
    observe: async (limits) => {
      const { result, model } = await run({ limits, steps: [endlessRates()] });
      const message = result.outcome.outcome === 'failure' ? result.outcome.message : '';
      return [model.callCount, /within \d+ model calls( in total)?/.exec(message)?.[0]];
    },
    defaults: [5, 'within 5 model calls'],
    set: [3, 'within 3 model calls in total'],
  },
  maxWallMs: {
    value: 45_000,
    observe: async (limits) => {
      const clock = createManualClock();
      const { result } = await runSkill({
        clock,
        limits,
        tools: [slowTool(clock, 30_000)],
        steps: [slowCalls()],
      });
      return category(result.outcome);
    },
    defaults: 'loop_limit',
    set: 'time_limit',
  },
  maxIdleMs: {
    value: 60_000,
    observe: async (limits) => {
      const clock = createManualClock();
      const { result } = await runSkill({
        clock,
        limits,
        tools: [slowTool(clock, 90_000)],
        steps: [slowCalls(), finish({ outcome: 'success', data: {} })],
      });
      return category(result.outcome);
    },
    base: { maxIterations: 2 },
    defaults: 'loop_limit',
    set: 'time_limit',
  },
  confirmEveryTurns: {
    value: 2,
    observe: async (limits) => {
      const { result, model } = await run({ limits, steps: [endlessRates()] });
      return [model.callCount, result.outcome.outcome];
    },
    defaults: [5, 'failure'],
    set: [2, 'suspended'],
  },
  maxConsecutiveFailures: {
    value: 2,
    base: { errorsBeforeReflection: 0 },
    observe: async (limits) => {
      const { result, model } = await run({ limits, steps: [unknownToolCalls()] });
      return [model.callCount, category(result.outcome)];
    },
    defaults: [5, 'circuit_open'],
    set: [2, 'circuit_open'],
  },
  errorsBeforeReflection: {
    value: 1,
    base: { maxConsecutiveFailures: 10 },
    observe: async (limits) => {
      const { model } = await run({ limits, steps: [unknownToolCalls()] });
      return model.calls.findIndex((c) => c.toolNames.length === 0);
    },
    defaults: 3,
    set: 1,
  },
  maxBacktracks: {
    value: 2,
    base: {
      maxIterations: 10,
      errorsBeforeReflection: 0,
      toolFailuresBeforeWithdrawal: 0,
      maxConsecutiveFailures: 10,
    },
    observe: async (limits) => {
      const { result } = await run({ limits, tools: goneRates(), steps: [endlessRates()] });
      return [result.events.filter((e) => e.type === 'backtrack').length, category(result.outcome)];
    },
    defaults: [5, 'circuit_open'],
    set: [2, 'circuit_open'],
  },
  toolFailuresBeforeWithdrawal: {
    value: 1,
    base: { maxIterations: 6, errorsBeforeReflection: 0, maxBacktracks: 0, maxConsecutiveFailures: 10 },
    observe: async (limits) => {
      const { result } = await run({ limits, tools: goneRates(), steps: [endlessRates()] });
      return result.events.flatMap((e) => (e.type === 'tool-withdrawn' ? [e.failures] : []));
    },
    defaults: [3],
    set: [1],
  },
  repeatedCallLimit: {
    value: 2,
    observe: async (limits) => {
      const { tools, ran } = createCurrencyTools();
      const same = call('lookup_rate_table', { currency: 'EUR' });
      await run({ limits, tools, steps: [same, same, same, finish({ outcome: 'success', data: {} })] });
      return ran.lookup_rate_table?.length;
    },
    defaults: 2,
    set: 1,
  },
  enforcementRetries: {
    value: 0,
    observe: async (limits) => {
      const steps: ScriptStep[] = [{ match: { phase: 'skill' }, text: 'About 1,150 NOK.', repeat: true }];
      return (await run({ limits, requiredTools: ['get_rate'], steps })).model.callCount;
    },
    defaults: 3,
    set: 1,
  },
  modelRetries: {
    value: 0,
    observe: async (limits) => {
      const steps: ScriptStep[] = [{ match: { phase: 'skill' }, error: rateLimited(), repeat: true }];
      return (await run({ limits, steps })).model.callCount;
    },
    defaults: 3,
    set: 1,
  },
  backoffMs: {
    value: 10,
    observe: async (limits) => {
      const steps: ScriptStep[] = [
        { match: { phase: 'skill' }, error: rateLimited() },
        { match: { phase: 'skill' }, error: rateLimited() },
        finish({ outcome: 'success', data: {} }),
      ];
      const { result } = await run({ limits, steps });
      return result.events.flatMap((e) => (e.type === 'react-retry' ? [e.delayMs] : []));
    },
    defaults: [1_000, 2_000],
    set: [10, 20],
  },
  maxBackoffMs: {
    value: 1_500,
    observe: async (limits) => {
      const steps: ScriptStep[] = [
        { match: { phase: 'skill' }, error: rateLimited() },
        { match: { phase: 'skill' }, error: rateLimited() },
        finish({ outcome: 'success', data: {} }),
      ];
      const { result } = await run({ limits, steps });
      return result.events.flatMap((e) => (e.type === 'react-retry' ? [e.delayMs] : []));
    },
    defaults: [1_000, 2_000],
    set: [1_000, 1_500],
  },
  maxOutputTokens: {
    value: 100,
    observe: async (limits) => {
      const { model } = await run({ limits, steps: [finish({ outcome: 'success', data: {} })] });
      return model.calls[0]?.options.maxOutputTokens;
    },
    defaults: 4_096,
    set: 100,
  },
  truncationRetries: {
    value: 0,
    observe: async (limits) => {
      const steps: ScriptStep[] = [
        { match: { phase: 'skill' }, text: 'The rate table shows', finishReason: 'length', repeat: true },
      ];
      return (await run({ limits, steps })).model.calls.map((c) => c.options.maxOutputTokens);
    },
    defaults: [4_096, 8_192],
    set: [4_096],
  },
  unparseableRetries: {
    value: 0,
    observe: async (limits) => {
      const steps: ScriptStep[] = [{ match: { phase: 'skill' }, text: '', repeat: true }];
      return (await run({ limits, steps })).model.callCount;
    },
    defaults: 2,
    set: 1,
  },
  cleanedErrorChars: {
    value: 40,
    observe: async (limits) => {
      const tools = createCurrencyTools({
        failures: [{ category: 'not_found', message: upstreamTrace('rates-api') }],
      }).tools;
      const steps = [
        call('get_rate', { from: 'EUR', to: 'NOK' }),
        call('lookup_rate_table', { currency: 'EUR' }),
        finish({ outcome: 'success', data: {} }),
      ];
      const { model } = await run({ limits, tools, steps });
      const error = model.calls[1]?.prompt
        .flatMap((m) => (m.role === 'tool' ? m.content : []))
        .find((part) => part.type === 'tool-result' && part.toolName === 'get_rate');
      const output = error?.type === 'tool-result' ? error.output : undefined;
      return output?.type === 'error-text' ? output.value.length <= 40 : output;
    },
    defaults: false,
    set: true,
  },
};

describe('every bound of the skill loop changes what a run does when it is set', () => {
  it.each(Object.entries(cases))('%s', async (bound, { value, base = {}, observe, defaults, set }) => {
    expect(defaults).not.toEqual(set);
    expect(await observe(base)).toEqual(defaults);
    expect(await observe({ ...base, [bound]: value })).toEqual(set);
  });
});

describe('runSkillLoop({ limits }) is the one way to set a run’s bounds', () => {
  it('refuses the removed maxIterations shorthand, and a bound it does not know, before any model call', async () => {
    const removed = startSkill({ steps: [endlessRates()], ...({ maxIterations: 1 } as object) });
    await expect(removed.done).rejects.toSatisfy(
      (error) =>
        ConfigurationError.isInstance(error) &&
        error.problems.join() === 'maxIterations: set limits.maxIterations instead',
    );
    const unknown = startSkill({ steps: [endlessRates()], limits: { maxIteration: 1 } as never });
    await expect(unknown.done).rejects.toSatisfy(
      (error) =>
        ConfigurationError.isInstance(error) &&
        error.problems.join() === 'call.maxIteration is not a bound of the skill loop',
    );
    expect(removed.model.callCount + unknown.model.callCount).toBe(0);
  });
});
