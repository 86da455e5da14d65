import { describe, expect, it } from 'vitest';
import { secrets } from './fixtures/secret-vectors.js';
import { redactValue } from './redact-value.js';

describe('redactValue', () => {
  it('redacts strings anywhere in objects and arrays, keeping keys and structure', () => {
    const input = {
      user: 'ada',
      note: `key ${secrets.openaiClassic}`,
      list: [1, true, null, `Bearer ${secrets.bearer}`, { deep: [`https://a:${secrets.urlPassword}@h/x`] }],
    };
    expect(redactValue(input)).toEqual({
      user: 'ada',
      note: 'key [REDACTED:openai-key]',
      list: [
        1,
        true,
        null,
        'Bearer [REDACTED:bearer-token]',
        { deep: ['https://a:[REDACTED:url-password]@h/x'] },
      ],
    });
  });

  it('replaces the whole value of keys named like secrets', () => {
    expect(
      redactValue({
        password: 'two words',
        clientSecret: 'abc',
        access_token: 'xyz',
        apiKey: secrets.google,
        Authorization: 'Basic abc',
        private_key: 'k',
        'Set-Cookie': 'sid=1',
        pin_password: 1234,
      }),
    ).toEqual({
      password: '[REDACTED:password]',
      clientSecret: '[REDACTED:secret]',
      access_token: '[REDACTED:token]',
      apiKey: '[REDACTED:google-api-key]',
      Authorization: '[REDACTED:authorization]',
      private_key: '[REDACTED:private-key]',
      'Set-Cookie': '[REDACTED:cookie]',
      pin_password: '[REDACTED:password]',
    });
  });

  it('leaves keys that merely contain a keyword, empty values, literals and directories', () => {
    const input = {
      token_count: 5,
      max_tokens: 100,
      password: '',
      token: null,
      secret: false,
      PWD: '/home/ada',
    };
    expect(redactValue(input)).toEqual(input);
  });

  it('descends into objects under sensitive keys', () => {
    expect(redactValue({ credentials: { password: 'x', user: 'u' }, token: { value: 'plain' } })).toEqual({
      credentials: { password: '[REDACTED:password]', user: 'u' },
      token: { value: 'plain' },
    });
  });

  it('returns a new value and leaves the input untouched', () => {
    const input = { password: 'x', nested: { list: ['a'] } };
    const output = redactValue(input) as typeof input;
    expect(output).not.toBe(input);
    expect(output.nested).not.toBe(input.nested);
    expect(input).toEqual({ password: 'x', nested: { list: ['a'] } });
  });

  it('replaces a reference back to an enclosing object with [Circular], but copies shared ones', () => {
    const shared = { v: 1 };
    const node: Record<string, unknown> = { name: 'root', a: shared, b: shared };
    node.self = node;
    node.list = [node, { parent: node }];
    expect(redactValue(node)).toEqual({
      name: 'root',
      a: { v: 1 },
      b: { v: 1 },
      self: '[Circular]',
      list: ['[Circular]', { parent: '[Circular]' }],
    });
  });

  it('turns errors into a redacted { name, message }', () => {
    const error = new TypeError(`fetch failed for token=${secrets.githubClassic}`);
    expect(redactValue({ error })).toEqual({
      error: { name: 'TypeError', message: 'fetch failed for token=[REDACTED:github-token]' },
    });
  });

  it('uses toJSON, and converts maps, sets and class instances like JSON does', () => {
    class Connection {
      host = 'db';
      password = 'hunter2';
    }
    const value = {
      at: new Date(Date.UTC(2024, 0, 2)),
      url: new URL(`https://bob:${secrets.urlPassword}@example.com/x`),
      map: new Map<unknown, unknown>([
        [1, 'one'],
        ['api_key', 'abc'],
      ]),
      set: new Set(['a', `sk-proj-${secrets.openaiProject.slice(8)}`]),
      connection: new Connection(),
    };
    expect(redactValue(value)).toEqual({
      at: '2024-01-02T00:00:00.000Z',
      url: 'https://bob:[REDACTED:url-password]@example.com/x',
      map: { 1: 'one', api_key: '[REDACTED:api-key]' },
      set: ['a', '[REDACTED:openai-key]'],
      connection: { host: 'db', password: '[REDACTED:password]' },
    });
  });

  it('redacts a key that is itself a secret without losing a colliding entry', () => {
    const key = secrets.githubClassic;
    const once = redactValue({ [key]: 1, '[REDACTED:github-token]': 2 });
    expect(once).toEqual({ '[REDACTED:github-token]': 1, '[REDACTED:github-token]#2': 2 });
    expect(redactValue(once)).toEqual(once);
  });

  it('bounds the depth', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 10; level++) deep = { level: deep };
    expect(JSON.stringify(redactValue(deep, { maxDepth: 3 }))).toBe(
      '{"level":{"level":{"level":"[MaxDepth]"}}}',
    );
    let veryDeep: unknown = 'x';
    for (let level = 0; level < 100_000; level++) veryDeep = [veryDeep];
    expect(() => redactValue(veryDeep)).not.toThrow();
  });

  it('keeps a __proto__ key as data and survives getters that throw', () => {
    const parsed = JSON.parse('{"__proto__": {"password": "x"}, "ok": 1}') as object;
    const output = redactValue(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(output, '__proto__')?.value).toEqual({
      password: '[REDACTED:password]',
    });
    const hostile = {
      get boom(): string {
        throw new Error('no');
      },
    };
    expect(redactValue({ hostile })).toEqual({ hostile: '[Unserializable]' });
  });

  it('is idempotent and honours ignoreKinds', () => {
    const value = {
      password: 'x',
      note: `jwt ${secrets.jwt}`,
      auth: { Authorization: 'Bearer [REDACTED:bearer-token]' },
    };
    const once = redactValue(value);
    expect(redactValue(once)).toEqual(once);
    expect(redactValue(value, { ignoreKinds: ['jwt', 'password'] })).toEqual({
      password: 'x',
      note: `jwt ${secrets.jwt}`,
      auth: { Authorization: '[REDACTED:authorization]' },
    });
  });

  it('passes primitives through', () => {
    expect(redactValue(42)).toBe(42);
    expect(redactValue(undefined)).toBeUndefined();
    expect(redactValue(`password=${secrets.password}`)).toBe('password=[REDACTED:password]');
  });
});
