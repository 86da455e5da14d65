import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { McpTurnOutcome } from '../mcp/index.js';

describe('flowstack mcp', () => {
  it('serves the travel example over stdio to the official MCP client', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-mcp-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        resolve(import.meta.dirname, 'main.ts'),
        'mcp',
        'travel',
        '--db',
        join(dir, 'mcp.db'),
      ],
      env: { ...(process.env as Record<string, string>), FLOWSTACK_MODEL: '' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['answer', 'approve', 'send_message']);
      const sent = (await client.callTool({
        name: 'send_message',
        arguments: { threadId: 'trip', text: 'flights to Oslo on 2026-12-05' },
      })) as CallToolResult;
      const outcome = sent.structuredContent as unknown as McpTurnOutcome;
      expect(outcome).toMatchObject({ threadId: 'trip', status: 'completed' });
      expect(outcome.reply).toMatch(/Oslo/);
      expect(sent.content).toEqual([{ type: 'text', text: expect.stringContaining('Oslo') }]);
    } finally {
      await client.close();
    }
  }, 30_000);
});
