/**
 * No path ends a skill without an outcome, and nothing escapes as an exception: models that throw,
 * stream half an answer, or say nothing; tools that never resolve; limits, stops and loops.
 */
import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { findOrphanedToolCalls } from './clean-context.js';
import { createCurrencyTools } from './fixtures/currency-tools.js';
import { call, finish, offered, runSkill, startSkill } from './fixtures/skill-harness.js';

const rateLimited = () =>
  new APICallError({
    message: 'Rate limit reached',
    url: 'https://models.example/v1/chat',
    requestBodyValues: {},
    statusCode: 429,
    isRetryable: true,
  });

describe('skill loop robustness', () => {
  it('ends with a model_error failure when the model throws', async () => {
    const { result } = await runSkill({
      tools: createCurrencyTools().tools,
      steps: [{ match: { phase: 'skill' }, error: new Error('socket hang up') }],
    });
    expect(result.outcome).toMatchObject({ outcome: 'failure', errorCategory: 'model_error' });
    expect(result.outcome.outcome === 'failure' && result.outcome.message).toContain('socket hang up');
  });

  it('retries a rate-limited model call with backoff on the injected clock', async () => {
    const { result, model, clock } = await runSkill({
      tools: createCurrencyTools().tools,
      steps: [
        { match: { phase: 'skill' }, error: rateLimited() },
        { match: { phase: 'skill' }, error: rateLimited() },
        finish({ outcome: 'success', data: { amount: 1 } }),
      ],
    });
    expect(result.outcome.outcome).toBe('success');
    expect(model.callCount).toBe(3);
    const retries = result.events.filter((e) => e.type === 'react-retry');
    expect(retries.map((e) => e.type === 'react-retry' && e.delayMs)).toEqual([1000, 2000]);
    expect(clock.sleeps).toContain(1000);
    expect(clock.sleeps).toContain(2000);
  });

  it('does not retry a request the provider calls non-retryable', async () => {
    const badRequest = new APICallError({
      message: 'Invalid schema for function',
      url: 'https://models.example/v1/chat',
      requestBodyValues: {},
      statusCode: 400,
      isRetryable: false,
    });
    const { result, model } = await runSkill({
      tools: createCurrencyTools().tools,
      steps: [{ match: { phase: 'skill' }, error: badRequest, repeat: true }],
    });
    expect(model.callCount).toBe(1);
    expect(result.outcome).toMatchObject({ outcome: 'failure', errorCategory: 'model_error' });
  });

  it('never replays a streamed call whose output already reached a live consumer', async () => {
    const { result, model, live } = await runSkill({
      tools: createCurrencyTools().tools,
      stream: true,
      steps: [
        { match: { phase: 'skill' }, text: 'The rate is', error: rateLimited() },
        finish({ outcome: 'success', data: {} }),
      ],
    });
    expect(model.callCount).toBe(1);
    expect(live.filter((e) => e.type === 'text-delta').length).toBeGreaterThan(0);
    expect(result.outcome).toMatchObject({ outcome: 'failure', errorCategory: 'model_error' });
  });

  it('retries a streamed call that failed before any output', async () => {
    const { result, model } = await runSkill({
      tools: createCurrencyTools().tools,
      stream: true,
      steps: [{ match: { phase: 'skill' }, error: rateLimited() }, finish({ outcome: 'success', data: {} })],
    });
    expect(model.callCount).toBe(2);
    expect(result.outcome.outcome).toBe('success');
  });

  it('retries an empty answer once with a hint, then fails', async () => {
    const { result, model } = await runSkill({
      tools: createCurrencyTools().tools,
      steps: [{ match: { phase: 'skill' }, text: '', repeat: true }],
    });
    expect(model.callCount).toBe(2);
    expect(JSON.stringify(model.calls[1]?.prompt.at(-1))).toContain('Your reply was empty');
    expect(result.outcome).toMatchObject({ outcome: 'failure', errorCategory: 'model_error' });
    expect(result.outcome.outcome === 'failure' && result.outcome.message).toContain('answered with nothing');
  });

  it('fails with an outcome when no script step matches (the model rejects)', async () => {
    const { result } = await runSkill({ tools: createCurrencyTools().tools, steps: [] });
    expect(result.outcome).toMatchObject({ outcome: 'failure', errorCategory: 'model_error' });
  });

  it('stops waiting for a tool that never resolves at the idle limit, and pairs the call with an error', async () => {
    const { tools, ran } = createCurrencyTools({ neverResolve: true });
    const { result, clock } = await runSkill({
      tools,
      steps: [call('get_rate', { from: 'EUR', to: 'NOK' })],
    });
    expect(ran.get_rate).toHaveLength(1);
    expect(result.outcome).toMatchObject({ outcome: 'failure', errorCategory: 'time_limit' });
    expect(result.outcome.outcome === 'failure' && result.outcome.message).toContain(
      'nothing happened for 2 min',
    );
    expect(findOrphanedToolCalls(result.messages)).toEqual([]);
    expect(JSON.stringify(result.messages.at(-1))).toContain('whether it took effect is unknown');
    expect(clock.now() - 1_000_000).toBe(120_000);
  });

  it('ends at the wall-clock limit with what was done', async () => {
    const { tools } = createCurrencyTools();
    let clockRef: { advance(ms: number): void } | undefined;
    const currencies = ['NOK', 'SEK', 'DKK', 'ISK', 'PLN', 'CZK'];
    let n = 0;
    const started = startSkill({
      tools,
      limits: { maxWallMs: 5 * 60_000, maxIterations: 50 },
      steps: [
        {
          match: { phase: 'skill' },
          repeat: true,
          respond: () => {
            clockRef?.advance(100_000);
            return { toolCalls: [{ toolName: 'get_rate', input: { from: 'EUR', to: currencies[n++ % 6] } }] };
          },
        },
      ],
    });
    clockRef = started.clock;
    const { result } = await started.clock.settle(started.done);
    expect(result.outcome).toMatchObject({ outcome: 'failure', errorCategory: 'time_limit' });
    expect(result.outcome.outcome === 'failure' && result.outcome.message).toMatch(
      /^The skill ran out of time \(5 min\)\. Done: get_rate \(2 calls\)\./,
    );
    expect(findOrphanedToolCalls(result.messages)).toEqual([]);
    expect(result.events.at(-1)).toMatchObject({ type: 'terminated', reason: 'wall-time' });
  });

  it('suspends with user-stop when the signal aborts while a tool runs', async () => {
    const { tools } = createCurrencyTools({ neverResolve: true });
    const controller = new AbortController();
    const started = startSkill({
      tools,
      signal: controller.signal,
      steps: [call('get_rate', { from: 'EUR', to: 'NOK' })],
    });
    setImmediate(() => setImmediate(() => controller.abort(new Error('stop pressed'))));
    const { result } = await started.done;
    expect(result.outcome).toEqual({
      outcome: 'suspended',
      kind: 'user-stop',
      reason: 'Stopped by the user after 1 model calls.',
      turns: 1,
    });
    expect(findOrphanedToolCalls(result.messages)).toEqual([]);
  });

  it('suspends with user-stop before the next model call when a stop is requested', async () => {
    let stop = false;
    const { result, model } = await runSkill({
      tools: createCurrencyTools().tools,
      stopRequested: () => stop,
      steps: [
        {
          match: { phase: 'skill' },
          respond: () => {
            stop = true;
            return { toolCalls: [{ toolName: 'get_rate', input: { from: 'EUR', to: 'NOK' } }] };
          },
        },
        finish({ outcome: 'success', data: {} }),
      ],
    });
    expect(model.callCount).toBe(1);
    expect(result.outcome).toMatchObject({ outcome: 'suspended', kind: 'user-stop' });
  });

  it('detects the same call repeated with the same arguments and does not run it again', async () => {
    const { tools, ran } = createCurrencyTools();
    const { result } = await runSkill({
      tools,
      steps: [
        call('get_rate', { from: 'EUR', to: 'NOK' }),
        call('get_rate', { to: 'NOK', from: 'EUR' }),
        call('get_rate', { from: 'EUR', to: 'NOK' }),
        finish({ outcome: 'success', data: { amount: 1150 } }),
      ],
    });
    expect(ran.get_rate).toHaveLength(2);
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'repeated-call', toolName: 'get_rate', count: 3 }),
    );
    expect(result.events).toContainEqual(expect.objectContaining({ type: 'backtrack' }));
    expect(result.outcome.outcome).toBe('success');
  });

  it('withdraws a tool that failed three times in a row from the offered set', async () => {
    const busy = { category: 'server_error', message: 'upstream busy' };
    const { tools, ran } = createCurrencyTools({ failures: [busy, busy, busy] });
    const { result, model } = await runSkill({
      tools,
      complexity: 'complex',
      steps: [
        call('get_rate', { from: 'EUR', to: 'NOK' }),
        call('get_rate', { from: 'EUR', to: 'SEK' }),
        call('get_rate', { from: 'EUR', to: 'DKK' }),
        { match: { phase: 'skill' }, text: 'The rate source keeps failing; I will use the table.' },
        call('get_rate', { from: 'EUR', to: 'ISK' }),
        call('lookup_rate_table', { currency: 'EUR' }),
        finish({ outcome: 'success', data: { amount: 1152 } }),
      ],
    });
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'tool-withdrawn', toolName: 'get_rate', failures: 3 }),
    );
    expect(offered(model.calls[4]?.options ?? { prompt: [] })).toEqual([
      'lookup_rate_table',
      'fetch_history',
      'finish_skill',
    ]);
    expect(ran.get_rate).toHaveLength(3);
    expect(JSON.stringify(model.calls[5]?.prompt.at(-1))).toContain('was withdrawn after failing 3 times');
    expect(result.outcome.outcome).toBe('success');
  });

  it('escalates a refused permission to a person as a suspension', async () => {
    const { tools } = createCurrencyTools({
      failures: [{ category: 'auth_error', message: 'API key revoked' }],
    });
    const { result } = await runSkill({ tools, steps: [call('get_rate', { from: 'EUR', to: 'NOK' })] });
    expect(result.outcome).toMatchObject({ outcome: 'suspended', kind: 'escalate', toolName: 'get_rate' });
  });

  it('names the call that needs a person when several calls of a step fail', async () => {
    const { tools } = createCurrencyTools({
      failures: [{ category: 'auth_error', message: 'API key revoked' }],
      historyFailure: { category: 'server_error', message: 'busy' },
    });
    const { result } = await runSkill({
      tools,
      steps: [
        {
          match: { phase: 'skill' },
          toolCalls: [
            { toolName: 'fetch_history', input: { pair: 'EURNOK' }, callId: 'h1' },
            { toolName: 'get_rate', input: { from: 'EUR', to: 'NOK' }, callId: 'r1' },
          ],
        },
      ],
    });
    expect(result.outcome).toMatchObject({
      outcome: 'suspended',
      kind: 'escalate',
      callId: 'r1',
      toolName: 'get_rate',
    });
    expect(result.state.completed).toEqual([]);
    expect(result.state.failures.map((f) => f.toolName)).toEqual(['fetch_history', 'get_rate']);
  });

  it('fails gracefully when the only tool fails systematically', async () => {
    const { tools } = createCurrencyTools({ failures: [{ category: 'not_found', message: 'no such pair' }] });
    const only = tools.filter((t) => t.name === 'get_rate');
    const { result } = await runSkill({ tools: only, steps: [call('get_rate', { from: 'EUR', to: 'XXX' })] });
    expect(result.outcome).toMatchObject({ outcome: 'failure', errorCategory: 'not_found' });
    expect(result.outcome.outcome === 'failure' && result.outcome.message).toMatch(
      /^The skill cannot finish: 'get_rate' failed .*no other tool can do it\. Done: nothing yet\. Not done: get_rate failed 1 time/,
    );
  });

  it('does not accept a success in the same step as a failed call', async () => {
    const { tools } = createCurrencyTools({ failures: [{ category: 'server_error', message: 'busy' }] });
    const { result, model } = await runSkill({
      tools,
      steps: [
        {
          match: { phase: 'skill' },
          toolCalls: [
            { toolName: 'get_rate', input: { from: 'EUR', to: 'NOK' } },
            { toolName: 'finish_skill', input: { outcome: 'success', data: { amount: 1 } } },
          ],
        },
        call('get_rate', { from: 'EUR', to: 'SEK' }),
        finish({ outcome: 'success', data: { amount: 2 } }),
      ],
    });
    expect(JSON.stringify(model.calls[1]?.prompt.at(-1))).toContain(
      'Not accepted: get_rate failed in this same step',
    );
    expect(result.outcome).toMatchObject({ outcome: 'success', data: { amount: 2 } });
  });
});

describe('secrets in model errors', () => {
  it('redacts a secret echoed in a model error before it reaches events or the outcome', async () => {
    const secret = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdEFGH';
    const leaky = new APICallError({
      message: `Incorrect API key provided: ${secret}`,
      url: 'https://models.example/v1/chat',
      requestBodyValues: {},
      statusCode: 503,
      isRetryable: true,
    });
    const { result } = await runSkill({
      tools: createCurrencyTools().tools,
      steps: [{ match: { phase: 'skill' }, error: leaky, repeat: true }],
    });
    expect(result.outcome.outcome).toBe('failure');
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(JSON.stringify(result.events)).toContain('Incorrect API key provided: ');
  });
});
