import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runSkillLoop } from '../loop/index.js';
import { createScriptedModel } from '../test/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { defineTool } from './define-tool.js';
import { executeSkillCalls } from './execute-skill-calls.js';
import { createTestContext } from './fixtures/batch-context.js';
import { type ParsedSkillCall, parseSkillCalls } from './parse-skill-calls.js';

const parse = (text: string) => parseSkillCalls(text, { ids: createSequentialIdGenerator() });
const argsOf = (call: ParsedSkillCall | undefined) =>
  call && 'input' in call ? JSON.parse(call.input) : call;
const isRead = (call: ParsedSkillCall | undefined) => call !== undefined && 'input' in call;
const problemOf = (call: ParsedSkillCall | undefined) =>
  call && 'problem' in call ? call.problem : undefined;

describe('parseSkillCalls', () => {
  it('reads named literal arguments of every kind', () => {
    const { calls, text } = parse(
      'Let me look.\n<skill>web_search(query="BTC price today", max_results=5, fresh=True, since=None, ' +
        'langs=[\'en\', "pt"], opts={depth: 2, \'safe\': false, "x": [1.5, -2e3]})</skill>\nDone.',
    );
    expect(text).toBe('Let me look.\n\nDone.');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ callId: 'call_1', toolName: 'web_search' });
    expect(argsOf(calls[0])).toEqual({
      query: 'BTC price today',
      max_results: 5,
      fresh: true,
      since: null,
      langs: ['en', 'pt'],
      opts: { depth: 2, safe: false, x: [1.5, -2000] },
    });
  });

  it('is robust to ), quotes, commas and tags inside strings', () => {
    const { calls } = parse(
      `<skill>note(text="a) b, c=\\"d\\" (e", other='it\\'s </skill> fine', sql="SELECT f(x) FROM t WHERE y = ')'")</skill>`,
    );
    expect(argsOf(calls[0])).toEqual({
      text: 'a) b, c="d" (e',
      other: "it's </skill> fine",
      sql: "SELECT f(x) FROM t WHERE y = ')'",
    });
  });

  it('reads escapes, unicode and triple-quoted multi-line strings', () => {
    const { calls } = parse(
      `<skill>write(body="""line 1\nline "2"\n""", tab="a\\tb", u="\\u00e9\\x41")</skill>`,
    );
    expect(argsOf(calls[0])).toEqual({ body: 'line 1\nline "2"\n', tab: 'a\tb', u: 'éA' });
  });

  it('groups the calls of a <parallel> block and leaves others ungrouped', () => {
    const { calls } = parse(
      '<parallel>\n<skill>price(coin="BTC")</skill>\n<skill>price(coin="ETH")</skill>\n</parallel>' +
        '<skill>sum()</skill><parallel><skill>a()</skill></parallel>',
    );
    expect(calls.map((c) => ('input' in c ? [c.toolName, c.parallelGroup] : c))).toEqual([
      ['price', 'parallel-1'],
      ['price', 'parallel-1'],
      ['sum', undefined],
      ['a', 'parallel-2'],
    ]);
    expect(argsOf(calls[2])).toEqual({});
  });

  it.each([
    ['positional argument', '<skill>f("x")</skill>', 'arguments must be named'],
    ['bare word value', '<skill>f(city=Oslo)</skill>', `'Oslo' is not a value: put text in quotes ("Oslo")`],
    ['unterminated string', '<skill>f(a="open)</skill>', 'never closed'],
    ['missing close paren', '<skill>f(a=1</skill>', "expected ',' or ')' after a value"],
    ['missing </skill>', '<skill>f(a=1) and more', 'expected </skill>'],
    ['no parentheses', '<skill>f</skill>', "expected '(' after the tool name 'f'"],
    ['no name', '<skill>(a=1)</skill>', 'expected a tool name'],
    ['duplicate argument', '<skill>f(a=1, a=2)</skill>', "the argument 'a' is given twice"],
    ['deep nesting', `<skill>f(a=${'['.repeat(40)}${']'.repeat(40)})</skill>`, 'nest deeper than 32'],
    ['bad escape', '<skill>f(a="\\uZZZZ")</skill>', 'bad \\u escape'],
    [
      'eval attempt',
      '<skill>f(a=__import__("os").system("rm -rf /"))</skill>',
      "'__import__' is not a value",
    ],
  ])('turns a malformed call (%s) into a failed entry with the problem', (_label, text, problem) => {
    const { calls } = parse(text);
    expect(calls).toHaveLength(1);
    expect(isRead(calls[0])).toBe(false);
    expect(problemOf(calls[0])).toContain(problem);
  });

  it('keeps reading after a malformed call', () => {
    const { calls } = parse('<skill>f(a=</skill> then <skill>g(b=2)</skill>');
    expect(calls.map(isRead)).toEqual([false, true]);
    expect(argsOf(calls[1])).toEqual({ b: 2 });
  });

  it('keeps __proto__ a plain argument', () => {
    const { calls } = parse('<skill>f(__proto__={"polluted": true})</skill>');
    const args = argsOf(calls[0]);
    expect(Object.keys(args)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves text without calls alone, including other tags and a lone <', () => {
    expect(parse('a < b and <b>bold</b>, no calls')).toEqual({
      text: 'a < b and <b>bold</b>, no calls',
      calls: [],
    });
  });

  it('reads at most maxCalls calls and says how many it left', () => {
    const text = '<skill>f()</skill>'.repeat(5);
    const { calls } = parseSkillCalls(text, { maxCalls: 3, ids: createSequentialIdGenerator() });
    expect(calls.map(isRead)).toEqual([true, true, true, false]);
    expect(problemOf(calls[3])).toContain('2 more calls were not run');
  });

  it('is linear on a megabyte of text', () => {
    const big = `${'prose '.repeat(100_000)}<skill>f(a="${'x'.repeat(400_000)}")</skill>${'<'.repeat(100_000)}`;
    const { calls } = parse(big);
    expect(calls).toHaveLength(1);
    expect(isRead(calls[0])).toBe(true);
  });

  it('leaves call ids to the caller when given no id generator', () => {
    const { calls } = parseSkillCalls('<skill>f(a=1)</skill><skill>g(</skill>');
    expect(calls.map((c) => c.callId)).toEqual([undefined, undefined]);
  });
});

describe('the skill loop seam', () => {
  it('runs text calls through runSkillLoop with parseSkillCalls as its parseTextToolCalls', async () => {
    const ran: string[] = [];
    const price = defineTool({
      name: 'price',
      description: 'Price of a coin.',
      input: z.object({ coin: z.string() }),
      execute: ({ coin }) => {
        ran.push(coin);
        return `${coin}: 1 (quote says "ok)")`;
      },
    });
    const model = createScriptedModel({
      steps: [
        {
          match: { phase: 'skill' },
          text: 'Both.<parallel><skill>price(coin="BTC")</skill><skill>price(coin=\'ETH\')</skill></parallel><skill>price(coin=SOL)</skill>',
        },
        {
          match: { phase: 'skill' },
          text: '<skill>finish_skill(outcome="success", data={"btc": 1, "eth": 1})</skill>',
        },
      ],
    });
    const context = createTestContext([price]);
    const result = await runSkillLoop({
      model,
      prompt: [{ role: 'system', content: 'Price the coins.' }],
      tools: context.tools,
      batch: context,
      parseTextToolCalls: (text) => parseSkillCalls(text).calls,
      ids: createSequentialIdGenerator(),
    });
    expect(ran).toEqual(['BTC', 'ETH']);
    expect(result.outcome).toMatchObject({ outcome: 'success', data: { btc: 1, eth: 1 } });
    const second = JSON.stringify(model.calls[1]?.prompt);
    expect(second).toContain("'SOL' is not a value");
  });
});

describe('executeSkillCalls', () => {
  it('runs the readable calls through the pipeline and answers malformed ones, in text order', async () => {
    const price = defineTool({
      name: 'price',
      description: 'Price of a coin.',
      input: z.object({ coin: z.string() }),
      execute: ({ coin }) => `${coin}: 1`,
    });
    const { calls } = parse(
      '<skill>price(coin="BTC")</skill><skill>price(coin=ETH)</skill><skill>nope()</skill>',
    );
    const results = await executeSkillCalls(calls, createTestContext([price]));
    expect(results.map((r) => [r.callId, r.status])).toEqual([
      ['call_1', 'success'],
      ['call_2', 'error'],
      ['call_3', 'error'],
    ]);
    expect(results[1]?.contextText).toContain("'ETH' is not a value");
    expect(results[1]?.contextText).toContain('Write a call as <skill>');
    expect(results[2]).toMatchObject({ error: { category: 'not_found' } });
  });
});
