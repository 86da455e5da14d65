import { describe, expect, it } from 'vitest';
import type { Logger } from '../spec/index.js';
import { createRedactingLogger } from './create-redacting-logger.js';

const token = `ghp_${'Z9y8X7w6V5'.repeat(3)}q`;

function recording() {
  const written: { level: string; args: unknown[] }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      void written.push({ level, args });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, written };
}

describe('createRedactingLogger', () => {
  it('redacts records and messages and makes a thrown value a plain { type, message, stack }', () => {
    const { logger, written } = recording();
    const safe = createRedactingLogger({ logger });
    const failure = new TypeError(`refused key ${token}`);
    safe.warn({ threadId: 't1', apiKey: 'plain-value', err: failure }, `retrying with ${token}`);
    const [record, message] = (written[0]?.args ?? []) as [Record<string, unknown>, string];
    expect(message).toBe('retrying with [REDACTED:github-token]');
    expect(record).toMatchObject({
      threadId: 't1',
      apiKey: '[REDACTED:api-key]',
      err: { type: 'TypeError', message: 'refused key [REDACTED:github-token]' },
    });
    expect(JSON.stringify(written)).not.toContain(token);
    expect((record.err as { stack: string }).stack).toContain('TypeError: refused key [REDACTED');
  });

  it('passes a message alone as (record, message), the order pino takes', () => {
    const { logger, written } = recording();
    createRedactingLogger({ logger }).info('hello');
    expect(written).toEqual([{ level: 'info', args: [{}, 'hello'] }]);
  });

  it('uses the logger’s own child when it has one, and merges bindings when it has none', () => {
    const children: Record<string, unknown>[] = [];
    const { logger, written } = recording();
    const withChild: Logger = {
      ...logger,
      child: (bindings) => {
        children.push(bindings);
        return logger;
      },
    };
    createRedactingLogger({ logger: withChild }).child({ flow: 'f' }).warn({ tool: 't' }, 'w');
    expect(children).toEqual([{ flow: 'f' }]);
    createRedactingLogger({ logger }).child({ flow: 'g' }).warn({ tool: 't' }, 'w');
    expect(written.map((w) => w.args[0])).toEqual([{ tool: 't' }, { flow: 'g', tool: 't' }]);
  });

  it('ignores a logger that throws: a diagnostic never fails the work it describes', () => {
    const throwing: Logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => {
        throw new Error('disk full');
      },
      error: () => undefined,
    };
    expect(() => createRedactingLogger({ logger: throwing }).warn({ threadId: 't1' }, 'w')).not.toThrow();
  });
});
