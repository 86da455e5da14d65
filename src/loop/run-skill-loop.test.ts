/**
 * One scripted-model scenario per path of the skill loop (issue 4 acceptance), through the real tool
 * pipeline on a manual clock.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ScriptStep } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { findOrphanedToolCalls } from './clean-context.js';
import { measurePromptChars } from './estimate-prompt-tokens.js';
import { createCurrencyTools, upstreamTrace } from './fixtures/currency-tools.js';
import { call, finish, offered, runSkill } from './fixtures/skill-harness.js';
import { resumeSkillLoopState } from './skill-loop-state.js';
import { loopMessageKind } from './skill-messages.js';

const retired = { category: 'not_found', message: upstreamTrace('rates-api') };

describe('runSkillLoop paths', () => {
  it('continue: a transient error the model fixes by calling again', async () => {
    const { tools, ran } = createCurrencyTools({
      failures: [{ category: 'server_error', message: 'upstream busy, try again' }],
    });
    const { result, model } = await runSkill({
      tools,
      steps: [
        call('get_rate', { from: 'EUR', to: 'NOK' }),
        call('get_rate', { from: 'EUR', to: 'NOK' }),
        finish({ outcome: 'success', data: { amount: 1150 } }),
      ],
    });
    expect(result.outcome).toEqual({ outcome: 'success', data: { amount: 1150 }, scratchpadEntries: [] });
    expect(ran.get_rate).toHaveLength(2);
    const reflect = result.events.filter((e) => e.type === 'reflect');
    expect(reflect.map((e) => e.type === 'reflect' && e.decision.decision)).toEqual(['continue']);
    expect(result.events.some((e) => e.type === 'backtrack')).toBe(false);
    // The model saw the error as it was and fixed it.
    expect(JSON.stringify(model.calls[1]?.prompt)).toContain('upstream busy, try again');
  });

  it('backtrack: a systematic failure is cleaned from context and another tool succeeds', async () => {
    const { tools, ran } = createCurrencyTools({ failures: [retired] });
    const { result, model } = await runSkill({
      tools,
      steps: [
        call('get_rate', { from: 'EUR', to: 'NOK' }),
        call('lookup_rate_table', { currency: 'EUR' }),
        finish({ outcome: 'success', data: { amount: 1152 } }),
      ],
    });
    expect(result.outcome.outcome).toBe('success');
    expect(ran.lookup_rate_table).toHaveLength(1);
    const afterBacktrack = model.calls[1]?.prompt ?? [];
    expect(findOrphanedToolCalls(afterBacktrack)).toEqual([]);
    const summary = afterBacktrack.at(-1);
    expect(summary && loopMessageKind(summary)).toBe('reflection-summary');
    const summaryText = JSON.stringify(summary);
    expect(summaryText).toContain('get_rate');
    expect(summaryText).toContain('try lookup_rate_table or fetch_history instead of get_rate');
    expect(JSON.stringify(afterBacktrack)).not.toContain('node_modules/gateway');
  });

  it('backtrack: the next prompt is measurably shorter than without cleaning', async () => {
    const steps = (): ScriptStep[] => [
      call('get_rate', { from: 'EUR', to: 'NOK' }),
      call('get_rate', { from: 'EUR', to: 'NOK' }),
      call('lookup_rate_table', { currency: 'EUR' }),
      finish({ outcome: 'success', data: { amount: 1152 } }),
    ];
    const failing = { failures: [{ category: 'timeout', message: upstreamTrace('rates-api') }, retired] };
    const cleaned = await runSkill({ tools: createCurrencyTools(failing).tools, steps: steps() });
    const raw = await runSkill({
      tools: createCurrencyTools(failing).tools,
      steps: steps(),
      cleanContextOnBacktrack: false,
    });
    const cleanedPrompt = cleaned.model.calls[2]?.prompt ?? [];
    const rawPrompt = raw.model.calls[2]?.prompt ?? [];
    expect(findOrphanedToolCalls(cleanedPrompt)).toEqual([]);
    expect(measurePromptChars(cleanedPrompt)).toBeLessThan(measurePromptChars(rawPrompt) * 0.6);
    expect(cleaned.result.outcome.outcome).toBe('success');
    expect(raw.result.outcome.outcome).toBe('success');
  });

  it('breakers: a failure spiral trips level 1, then level 2, and ends with a graceful failure summary', async () => {
    const { tools, ran } = createCurrencyTools({
      failures: [retired, retired, retired],
      historyFailure: { category: 'not_found', message: 'history service decommissioned' },
    });
    let n = 0;
    const { result, model } = await runSkill({
      tools,
      complexity: 'complex',
      steps: [
        call('lookup_rate_table', { currency: 'EUR' }),
        {
          match: { phase: 'skill' },
          repeat: true,
          respond: (options) => {
            if (offered(options).length === 0)
              return { text: 'Both rate sources fail the same way; I will try the other source.' };
            n += 1;
            return n % 2 === 1
              ? {
                  toolCalls: [
                    { toolName: 'get_rate', input: { from: 'EUR', to: ['NOK', 'SEK', 'DKK'][n % 3] } },
                  ],
                }
              : { toolCalls: [{ toolName: 'fetch_history', input: { pair: 'EURNOK', days: n } }] };
          },
        },
      ],
    });
    const breakers = result.events.filter((e) => e.type === 'breaker');
    expect(breakers.map((e) => e.type === 'breaker' && e.level)).toEqual([1, 2]);
    // Level 1: the reflection turn offered no tools and its explanation stayed in context.
    const reflection = model.calls.find((c) => c.toolNames.length === 0);
    expect(reflection).toBeDefined();
    expect(JSON.stringify(reflection?.prompt.at(-1))).toContain('Tools are withheld');
    expect(JSON.stringify(model.calls.at(-1)?.prompt)).toContain('Both rate sources fail the same way');
    expect(result.events.filter((e) => e.type === 'backtrack')).toHaveLength(5);
    expect(result.outcome.outcome).toBe('failure');
    if (result.outcome.outcome !== 'failure') return;
    expect(result.outcome.errorCategory).toBe('circuit_open');
    expect(result.outcome.message).toMatch(
      /^The skill gave up after 5 backtracks\. Done: lookup_rate_table \(1 call\)\. Not done: /,
    );
    expect(result.outcome.message).toContain('get_rate failed 3 times');
    expect(result.outcome.message).toContain('fetch_history failed 2 times');
    expect(result.outcome.partialData).toMatchObject({
      completed: [{ toolName: 'lookup_rate_table', output: { base: 'EUR' } }],
    });
    expect(ran.get_rate).toHaveLength(3);
    // Nothing ran after the outcome.
    expect(result.events.at(-1)).toMatchObject({ type: 'terminated', reason: 'breaker-open' });
  });

  it('the checkpoint keeps a small output whole and a large one as its capped context text', async () => {
    const { tools } = createCurrencyTools();
    const report = defineTool({
      name: 'fetch_report',
      description: 'The full rate report.',
      input: z.object({}),
      execute: async () => ({ rows: Array.from({ length: 400 }, (_, i) => `EUR/NOK day ${i}: 11.5`) }),
    });
    const { result } = await runSkill({
      tools: [...tools, report],
      steps: [
        call('get_rate', { from: 'EUR', to: 'NOK' }),
        call('fetch_report', {}),
        finish({ outcome: 'success', data: { amount: 1150 } }),
      ],
    });
    const [rate, big] = result.state.completed;
    expect(rate).toMatchObject({ toolName: 'get_rate', output: { from: 'EUR', to: 'NOK', rate: 11.5 } });
    expect(big?.toolName).toBe('fetch_report');
    expect(typeof big?.output).toBe('string');
    expect(String(big?.output).length).toBeLessThan(JSON.stringify({ rows: [] }).length + 4_000);
  });

  it('uncertain: the model says it needs the user to clarify', async () => {
    const { result } = await runSkill({
      tools: createCurrencyTools().tools,
      steps: [
        finish({ outcome: 'uncertain', reason: 'Which NOK rate: buy or sell?', context: { pair: 'EURNOK' } }),
      ],
    });
    expect(result.outcome).toEqual({
      outcome: 'uncertain',
      reason: 'Which NOK rate: buy or sell?',
      context: { pair: 'EURNOK' },
    });
  });

  it('enforcement: a required tool skipped is enforced, then called', async () => {
    const { tools, ran } = createCurrencyTools();
    const { result, model } = await runSkill({
      tools,
      requiredTools: ['get_rate'],
      steps: [
        finish({ outcome: 'success', data: { amount: 1100, note: 'from memory' } }),
        call('get_rate', { from: 'EUR', to: 'NOK' }),
        finish({ outcome: 'success', data: { amount: 1150 } }),
      ],
    });
    expect(result.outcome).toMatchObject({ outcome: 'success', data: { amount: 1150 } });
    expect(ran.get_rate).toHaveLength(1);
    expect(JSON.stringify(model.calls[1]?.prompt.at(-1))).toContain("this step requires calling 'get_rate'");
    expect(result.validation).toEqual({ requiredTools: ['get_rate'], missing: [], passed: true });
  });

  it('enforcement: after two prompts the answer is taken with the validation marked failed', async () => {
    const { result, model } = await runSkill({
      tools: createCurrencyTools().tools,
      requiredTools: ['get_rate'],
      steps: [{ match: { phase: 'skill' }, text: 'It is about 1,150 NOK.', repeat: true }],
    });
    expect(model.callCount).toBe(3);
    expect(result.outcome).toMatchObject({ outcome: 'success', data: { text: 'It is about 1,150 NOK.' } });
    expect(result.validation).toEqual({ requiredTools: ['get_rate'], missing: ['get_rate'], passed: false });
    const enforcement = result.events.filter((e) => e.type === 'enforcement');
    expect(enforcement.map((e) => e.type === 'enforcement' && e.retry)).toEqual([1, 2, 2]);
  });

  it('truncation: output cut off by the length limit is retried with twice the output tokens', async () => {
    const { result, model } = await runSkill({
      tools: createCurrencyTools().tools,
      steps: [
        { match: { phase: 'skill' }, text: 'The rate table shows', finishReason: 'length' },
        finish({ outcome: 'success', data: { amount: 1152 } }),
      ],
    });
    expect(result.outcome.outcome).toBe('success');
    const limits = model.calls.map((c) => c.options.maxOutputTokens);
    expect(limits).toEqual([4096, 8192]);
    // The cut-off attempt never entered the transcript.
    expect(JSON.stringify(model.calls[1]?.prompt)).not.toContain('The rate table shows');
    expect(result.events.find((e) => e.type === 'react-retry')).toMatchObject({ cause: 'truncated' });
  });

  it('long task: every N turns the run suspends to ask whether to go on, and resumes when told yes', async () => {
    const { tools, ran } = createCurrencyTools();
    const currencies = ['NOK', 'SEK', 'DKK', 'ISK', 'PLN'];
    const step: ScriptStep = {
      match: { phase: 'skill' },
      repeat: true,
      respond: () => {
        const next = currencies[ran.get_rate?.length ?? 0];
        return next
          ? { toolCalls: [{ toolName: 'get_rate', input: { from: 'EUR', to: next } }] }
          : { toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { done: 5 } } }] };
      },
    };
    const limits = { confirmEveryTurns: 3 };
    const first = await runSkill({ tools, steps: [step], complexity: 'complex', limits });
    expect(first.result.outcome).toEqual({
      outcome: 'suspended',
      kind: 'confirm-continue',
      reason:
        'This task has taken 3 model calls so far. Should I go on? (I ask every 3 model calls; `execution.confirmEveryTurns` changes that, 0 never asks.)',
      turns: 3,
    });
    expect(ran.get_rate).toHaveLength(3);
    const checkpoint = JSON.parse(
      JSON.stringify({ messages: first.result.messages, state: first.result.state }),
    );
    const second = await runSkill({
      tools,
      steps: [step],
      complexity: 'complex',
      limits,
      clock: first.clock,
      resume: {
        messages: checkpoint.messages,
        state: resumeSkillLoopState(checkpoint.state, { now: first.clock.now(), confirmed: true }),
      },
    });
    expect(second.result.outcome).toMatchObject({ outcome: 'success', data: { done: 5 } });
    expect(ran.get_rate).toHaveLength(5);
    expect(second.result.state.turns).toBe(6);
    // The resumed call saw the whole transcript so far.
    expect(JSON.stringify(second.model.calls[0]?.prompt)).toContain('"to":"DKK"');
  });
});
