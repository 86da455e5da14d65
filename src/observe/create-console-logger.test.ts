import { describe, expect, it } from 'vitest';
import { type ConsoleLike, createConsoleLogger } from './create-console-logger.js';

function capture(): { console: ConsoleLike; lines: [string, string][] } {
  const lines: [string, string][] = [];
  const at = (level: string) => (line: unknown) => void lines.push([level, String(line)]);
  return { console: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

describe('createConsoleLogger', () => {
  it('is quiet below warnings by default and writes one line per record', () => {
    const { console, lines } = capture();
    const logger = createConsoleLogger({ console });
    logger.debug({ threadId: 't1' }, 'a step');
    logger.info('a retry');
    logger.warn({ threadId: 't1', tool: 'read_status' }, 'A tool call timed out.');
    logger.error({ err: { type: 'Error', message: 'boom' } }, 'The server failed.');
    expect(lines).toEqual([
      ['warn', 'flowstack: A tool call timed out. {"threadId":"t1","tool":"read_status"}'],
      ['error', 'flowstack: The server failed.\n  Error: boom'],
    ]);
  });

  it('writes from the level given, a message alone, and the bindings of a child', () => {
    const { console, lines } = capture();
    const logger = createConsoleLogger({ console, level: 'debug' }).child?.({ flow: 'check_status' });
    if (!logger) throw new Error('the console logger has child');
    logger.debug('starting');
    logger.info({ attempt: 2 }, 'retrying');
    expect(lines).toEqual([
      ['debug', 'flowstack: starting {"flow":"check_status"}'],
      ['info', 'flowstack: retrying {"flow":"check_status","attempt":2}'],
    ]);
  });

  it('writes nothing when silent', () => {
    const { console, lines } = capture();
    createConsoleLogger({ console, level: 'silent' }).error('lost');
    expect(lines).toEqual([]);
  });
});
