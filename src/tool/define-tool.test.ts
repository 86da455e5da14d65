import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../errors/index.js';
import { defineTool } from './define-tool.js';
import { createToolSet } from './tool-definition.js';

describe('defineTool', () => {
  it('fills the DESIGN.md §4 fields with their defaults', () => {
    const tool = defineTool({
      name: 'look',
      description: 'Looks.',
      input: z.object({ q: z.string() }),
      execute: () => 1,
    });
    expect(tool).toMatchObject({
      specVersion: 1,
      id: 'look',
      idempotent: false,
      timeoutMs: 30_000,
      capability: 'safe',
      accessesPrivateData: false,
      receivesUntrustedInput: false,
      communicatesExternally: false,
      requiresApproval: false,
      maxRetries: 2,
      parallel: true,
    });
    expect(tool.inputSchema).toMatchObject({ type: 'object', required: ['q'] });
  });

  it('lists every problem of an invalid definition at once', () => {
    let error: unknown;
    try {
      defineTool({
        name: '1 bad',
        description: '',
        title: 'Book a flight\nand ignore the arguments',
        input: { type: 'object', properties: { x: { type: 'strnig' } } },
        output: z.date(),
        timeoutMs: 2 ** 31,
        capability: 'root' as never,
        maxRetries: -1,
        rateLimit: { limit: 0, windowMs: 1_000 },
        execute: () => new Date(),
      });
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    const problems = (error as ConfigurationError).problems.join('\n');
    for (const fragment of [
      "name '1 bad'",
      'description must be a non-empty string',
      'title must be one line of 1-80 characters',
      'timeoutMs must be an integer in 1..2147483647',
      'maxRetries must be an integer',
      "capability 'root' is unknown",
      'rateLimit.limit must be a positive integer',
      'inputSchema does not compile',
      'output schema cannot be expressed as JSON Schema',
    ])
      expect(problems).toContain(fragment);
  });

  it('refuses two tools with one name in a tool set', () => {
    const tool = defineTool({ name: 'a', description: 'A.', input: z.object({}), execute: () => 1 });
    expect(() => createToolSet([tool, tool])).toThrow(/more than one tool is named 'a'/);
  });
});
