/**
 * A Zod input schema is enforced by Zod itself, through `createAgent`: a refinement the JSON Schema
 * projection cannot say still refuses the call (the model reads why), a default fills a missing field and
 * a transform's output is what the tool receives.
 */
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from './define-tool.js';

function shownToolResults(options: LanguageModelV3CallOptions): string {
  const texts: string[] = [];
  for (const message of options.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-result' && 'value' in part.output) texts.push(String(part.output.value));
  }
  return texts.join('\n');
}

/** One turn in which the model calls `read_file` with `input`, then reports what it was shown. */
async function callReadFile(input: Record<string, unknown>) {
  const received: unknown[] = [];
  const readFile = defineTool({
    name: 'read_file',
    description: 'Reads a file under the workspace.',
    input: z.object({
      path: z.string().refine((path) => !path.split('/').includes('..'), 'must not contain ..'),
      encoding: z.enum(['utf8', 'base64']).default('utf8'),
      tags: z
        .string()
        .transform((text) => text.split(','))
        .optional(),
    }),
    idempotent: true,
    execute: (parsed) => {
      received.push(parsed);
      return 'file contents';
    },
  });
  const flow = defineFlow({
    name: 'read',
    intent: 'read',
    description: 'Read a file.',
    slots: [],
    tools: ['read_file'],
    skill: 'Read the file and report.',
  });
  const model = createScriptedModel({
    steps: [
      { match: { phase: 'predict' }, json: { flow: 'read', slots: {} } },
      { match: { phase: 'skill' }, toolCalls: [{ toolName: 'read_file', input }] },
      {
        match: { phase: 'skill' },
        respond: (options) => ({
          toolCalls: [
            {
              toolName: 'finish_skill',
              input: { outcome: 'success', data: { text: `Saw: ${shownToolResults(options)}` } },
            },
          ],
        }),
      },
    ],
  });
  const agent = createAgent({ model, flows: [flow], tools: [readFile], store: createMemoryStore() });
  const turn = await agent.send({ threadId: 't', text: 'read it' });
  await agent.close();
  return { turn, received, schema: readFile.inputSchema };
}

describe('a Zod input schema', () => {
  it('refuses what a refinement forbids, with a validation error the model reads', async () => {
    const { turn, received } = await callReadFile({ path: '/etc/../shadow' });
    expect(received).toEqual([]);
    expect(turn.reply).toContain("Saw: Error (validation_error) from tool 'read_file'");
    expect(turn.reply).toContain('/path must not contain ..');
  });

  it('hands the tool the parsed output: defaults filled, transforms applied', async () => {
    const { turn, received } = await callReadFile({ path: 'notes/today.md', tags: 'a,b' });
    expect(turn.reply).toBe('Saw: file contents');
    expect(received).toEqual([{ path: 'notes/today.md', encoding: 'utf8', tags: ['a', 'b'] }]);
  });

  it('shows the model the schema it writes: a defaulted field optional, unknown keys refused', async () => {
    const { schema, turn, received } = await callReadFile({ path: 'a.md', pth: 'b.md' });
    expect(schema).toMatchObject({ required: ['path'], additionalProperties: false });
    expect(received).toEqual([]);
    expect(turn.reply).toContain("must NOT have additional properties: 'pth'");
  });
});
