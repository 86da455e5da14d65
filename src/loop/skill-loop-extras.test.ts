/**
 * The reflection pass, the text skill-call seam, live streaming with parent links, and the model
 * retry policy.
 */
import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createCurrencyTools } from './fixtures/currency-tools.js';
import { call, finish, runSkill } from './fixtures/skill-harness.js';
import { isRetryableModelError, modelRetryDelayMs } from './model-retry-policy.js';
import { defaultSkillLoopLimits } from './skill-loop-limits.js';

describe('reflection pass', () => {
  const criteria = 'States the amount in NOK and the rate used.';

  it('evaluates a success against the criteria and allows exactly one revision', async () => {
    const { result, model } = await runSkill({
      tools: createCurrencyTools().tools,
      reflection: { successCriteria: criteria },
      steps: [
        finish({ outcome: 'success', data: { amount: 1150 } }),
        { match: { phase: 'skill-evaluate' }, json: { pass: false, issues: ['The rate used is missing.'] } },
        call('get_rate', { from: 'EUR', to: 'NOK' }),
        finish({ outcome: 'success', data: { amount: 1150, rate: 11.5 } }),
      ],
    });
    expect(result.outcome).toMatchObject({ outcome: 'success', data: { amount: 1150, rate: 11.5 } });
    expect(model.calls.map((c) => c.phase)).toEqual(['skill', 'skill-evaluate', 'skill', 'skill']);
    const evaluation = model.calls[1];
    expect(evaluation?.options.responseFormat).toMatchObject({ type: 'json' });
    expect(JSON.stringify(evaluation?.prompt.at(-1))).toContain(criteria);
    expect(JSON.stringify(model.calls[2]?.prompt.at(-1))).toContain('The rate used is missing.');
    expect(result.events.filter((e) => e.type === 'reflection-pass')).toHaveLength(1);
  });

  it('lets a passing or unreadable evaluation through without a revision', async () => {
    for (const answer of [{ json: { pass: true } }, { text: 'looks fine to me' }]) {
      const { result, model } = await runSkill({
        tools: createCurrencyTools().tools,
        reflection: { successCriteria: criteria },
        steps: [
          finish({ outcome: 'success', data: { amount: 1150, rate: 11.5 } }),
          { match: { phase: 'skill-evaluate' }, ...answer },
        ],
      });
      expect(result.outcome.outcome).toBe('success');
      expect(model.callCount).toBe(2);
    }
  });

  it('does not evaluate failures or uncertain outcomes', async () => {
    const { result, model } = await runSkill({
      tools: createCurrencyTools().tools,
      reflection: { successCriteria: criteria },
      steps: [finish({ outcome: 'failure', message: 'No rate source answers.' })],
    });
    expect(result.outcome.outcome).toBe('failure');
    expect(model.callCount).toBe(1);
  });
});

describe('text skill calls', () => {
  // A test-local stand-in for the protocol parser of src/tool: `<skill>name {json}</skill>`; a block
  // that does not match that shape comes back with a problem, as the real parser reports one.
  const parse = (text: string) =>
    [...text.matchAll(/<skill>([\s\S]*?)<\/skill>/g)].map((m) => {
      const read = /^\s*(\w+)\s+(\{.*\})\s*$/s.exec(m[1] ?? '');
      return read
        ? { toolName: read[1] as string, input: read[2] as string }
        : {
            toolName: (m[1] ?? '').trim().split(/\W/)[0] ?? '',
            problem: 'expected a name and a JSON object',
          };
    });

  it('runs calls written in text when the model made no native call, answering them in text', async () => {
    const { tools, ran } = createCurrencyTools();
    const { result, model } = await runSkill({
      tools,
      parseTextToolCalls: parse,
      steps: [
        { match: { phase: 'skill' }, text: 'Checking. <skill>get_rate {"from":"EUR","to":"NOK"}</skill>' },
        {
          match: { phase: 'skill' },
          text: '<skill>finish_skill {"outcome":"success","data":{"amount":1150}}</skill>',
        },
      ],
    });
    expect(ran.get_rate).toEqual([{ from: 'EUR', to: 'NOK' }]);
    expect(result.outcome).toMatchObject({ outcome: 'success', data: { amount: 1150 } });
    const prompt = model.calls[1]?.prompt ?? [];
    expect(prompt.some((m) => m.role === 'tool')).toBe(false);
    expect(JSON.stringify(prompt.at(-1))).toContain('Result of get_rate');
  });

  it('answers a call that could not be read as a validation error and still runs the others', async () => {
    const { tools, ran } = createCurrencyTools();
    const { result, model } = await runSkill({
      tools,
      parseTextToolCalls: parse,
      steps: [
        {
          match: { phase: 'skill' },
          text: '<skill>get_rate(from=EUR)</skill> <skill>lookup_rate_table {"currency":"EUR"}</skill>',
        },
        { match: { phase: 'skill' }, text: 'Done: 1,152 NOK.' },
      ],
    });
    expect(ran.get_rate).toEqual([]);
    expect(ran.lookup_rate_table).toHaveLength(1);
    const results = JSON.stringify(model.calls[1]?.prompt.at(-1));
    expect(results).toContain('The call could not be read: expected a name and a JSON object');
    expect(results).toContain('Result of lookup_rate_table');
    expect(result.outcome.outcome).toBe('success');
  });

  it('takes plain text as the answer when the parser finds no call', async () => {
    const { result } = await runSkill({
      tools: createCurrencyTools().tools,
      parseTextToolCalls: parse,
      steps: [{ match: { phase: 'skill' }, text: '100 EUR is about 1,150 NOK.' }],
    });
    expect(result.outcome).toMatchObject({
      outcome: 'success',
      data: { text: '100 EUR is about 1,150 NOK.' },
    });
  });
});

describe('events', () => {
  it('streams thinking and text live and links every event to the parent the caller named', async () => {
    const { result, live } = await runSkill({
      tools: createCurrencyTools().tools,
      stream: true,
      parentId: 'flow_7',
      steps: [
        {
          match: { phase: 'skill' },
          reasoning: 'The table is cheaper to read.',
          toolCalls: [{ toolName: 'lookup_rate_table', input: { currency: 'EUR' } }],
        },
        { match: { phase: 'skill' }, text: '100 EUR is 1,152 NOK.' },
      ],
    });
    expect(result.outcome.outcome).toBe('success');
    expect(
      live
        .filter((e) => e.type === 'thoughts-delta')
        .map((e) => (e.type === 'thoughts-delta' ? e.delta : ''))
        .join(''),
    ).toBe('The table is cheaper to read.');
    expect(live.some((e) => e.type === 'text-delta')).toBe(true);
    expect(result.events.map((e) => e.type)).toEqual(['thoughts', 'tool-call', 'tool-result', 'text']);
    expect(live.every((e) => e.parentId === 'flow_7')).toBe(true);
    expect(result.events.every((e) => e.parentId === 'flow_7')).toBe(true);
  });

  it('keeps going when a live listener throws', async () => {
    const { result } = await runSkill({
      tools: createCurrencyTools().tools,
      onEvent: () => {
        throw new Error('listener broke');
      },
      steps: [{ match: { phase: 'skill' }, text: 'Done.' }],
    });
    expect(result.outcome.outcome).toBe('success');
  });
});

describe('model retry policy', () => {
  const apiError = (statusCode: number, headers?: Record<string, string>) =>
    new APICallError({
      message: 'x',
      url: 'u',
      requestBodyValues: {},
      statusCode,
      ...(headers ? { responseHeaders: headers } : {}),
    });

  it('retries rate limits, timeouts and server errors, not bad requests', () => {
    expect(isRetryableModelError(apiError(429))).toBe(true);
    expect(isRetryableModelError(apiError(503))).toBe(true);
    expect(isRetryableModelError(apiError(408))).toBe(true);
    expect(isRetryableModelError(apiError(400))).toBe(false);
    expect(isRetryableModelError(apiError(401))).toBe(false);
    expect(isRetryableModelError(Object.assign(new Error('t'), { name: 'TimeoutError' }))).toBe(true);
    expect(isRetryableModelError({ type: 'error', error: { type: 'overloaded_error' } })).toBe(true);
    expect(isRetryableModelError(new Error('boom'))).toBe(false);
  });

  it('backs off exponentially up to the cap and honours Retry-After', () => {
    const limits = defaultSkillLoopLimits.simple;
    const noJitter = () => 0;
    const delays = [1, 2, 3, 6, 7].map((attempt) =>
      modelRetryDelayMs({ attempt, error: apiError(503), limits, random: noJitter }),
    );
    expect(delays).toEqual([1000, 2000, 4000, 30_000, 30_000]);
    const retryAfter = (seconds: string, random: () => number) =>
      modelRetryDelayMs({ attempt: 1, error: apiError(429, { 'retry-after': seconds }), limits, random });
    expect(retryAfter('7', noJitter)).toBe(7000);
    expect(retryAfter('600', noJitter)).toBe(30_000);
    // What the provider asks for is a floor that jitter never goes under.
    expect(retryAfter('7', () => 0.99)).toBe(7000);
  });

  it('takes a random share of up to half off each wait (equal jitter), as the formula says', () => {
    const limits = defaultSkillLoopLimits.simple;
    const at = (attempt: number, random: () => number) =>
      modelRetryDelayMs({ attempt, error: apiError(503), limits, random });
    // wait = capped − ⌊capped / 2 × random⌋, capped = min(30 s, 1 s × 2^(attempt − 1))
    expect([1, 2, 3, 6].map((attempt) => at(attempt, () => 0.5))).toEqual([750, 1_500, 3_000, 22_500]);
    expect(at(3, () => 0.999)).toBe(4_000 - Math.floor(2_000 * 0.999));
    expect(at(3, () => 0.25)).toBe(3_500);
  });

  it('gives two retries of the same failure at the same attempt different waits, all within the bounds', () => {
    const limits = defaultSkillLoopLimits.simple;
    for (const [attempt, capped] of [
      [1, 1_000],
      [3, 4_000],
      [8, 30_000],
    ] as const) {
      const waits = Array.from({ length: 20 }, () =>
        modelRetryDelayMs({ attempt, error: apiError(503), limits }),
      );
      expect(new Set(waits).size).toBeGreaterThan(1);
      for (const wait of waits) {
        expect(wait).toBeGreaterThan(capped / 2);
        expect(wait).toBeLessThanOrEqual(capped);
      }
    }
  });
});
