/**
 * An MCP server's prompts through `mcpTools`: listed with their arguments, filled in as text that an
 * application uses as a flow's skill; a server without prompts lists none and refuses to give one.
 * Real servers over stdio (`McpServer` of the official SDK, and a bare `Server` offering only tools).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent } from '../../agent/index.js';
import { ToolSourceError } from '../../errors/index.js';
import { defineFlow } from '../../flow/index.js';
import { createMemoryStore } from '../../store/index.js';
import { createScriptedModel } from '../../test/index.js';
import { type McpToolSource, mcpTools } from './mcp-tools.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const sources: McpToolSource[] = [];
afterAll(async () => {
  await Promise.all(sources.map((s) => s.close()));
});

async function open(fixture: string, name: string): Promise<McpToolSource> {
  const source = await mcpTools({
    command: process.execPath,
    args: ['--import', 'tsx', join(fixtures, fixture)],
    name,
  });
  sources.push(source);
  return source;
}

describe('MCP prompts', () => {
  it('lists the prompts and gives one, filled in, as text a flow can use as its skill', async () => {
    const source = await open('changing-mcp-server.ts', 'prompts');
    expect(await source.listPrompts()).toEqual([
      { name: 'review', description: 'Review a topic.', arguments: [{ name: 'topic', required: true }] },
    ]);
    const prompt = await source.getPrompt('review', { topic: 'the deploy' });
    expect(prompt).toEqual({
      description: 'A review of the deploy',
      text: 'Review the deploy carefully.\n\nI will list the risks first.',
      messages: [
        { role: 'user', text: 'Review the deploy carefully.' },
        { role: 'assistant', text: 'I will list the risks first.' },
      ],
    });

    const model = createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'review', slots: {} } },
        {
          match: { phase: 'skill' },
          toolCalls: [
            { toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'Reviewed.' } } },
          ],
        },
      ],
    });
    const agent = createAgent({
      model,
      flows: [
        defineFlow({
          name: 'review',
          intent: 'converse',
          description: 'Review.',
          slots: [],
          skill: prompt.text,
        }),
      ],
      store: createMemoryStore(),
    });
    await agent.send({ threadId: 't', text: 'review the deploy' });
    await agent.close();
    const skillCall = model.calls.find((c) => c.phase === 'skill');
    expect(JSON.stringify(skillCall?.prompt)).toContain('Review the deploy carefully.');
  });

  it('an unknown prompt or a missing argument is a ToolSourceError with the server’s reason', async () => {
    const source = await open('changing-mcp-server.ts', 'prompts-errors');
    const unknown = await source.getPrompt('no_such_prompt').catch((e: unknown) => e);
    expect(ToolSourceError.isInstance(unknown)).toBe(true);
    expect((unknown as Error).message).toContain("did not give its prompt 'no_such_prompt'");
    const missing = await source.getPrompt('review').catch((e: unknown) => e);
    expect(ToolSourceError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toContain('topic');
  });

  it('a server that offers no prompts lists none, and asking for one is a ToolSourceError', async () => {
    const source = await open('lying-mcp-server.ts', 'tools-only');
    expect(await source.listPrompts()).toEqual([]);
    const error = await source.getPrompt('review', { topic: 'x' }).catch((e: unknown) => e);
    expect(ToolSourceError.isInstance(error)).toBe(true);
    expect((error as ToolSourceError).source).toBe('mcp:tools-only');
    expect((error as Error).message).toContain('offers no prompts');
  });
});
