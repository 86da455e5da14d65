/**
 * An MCP server whose tool list changes while it runs (`McpServer` of the official SDK, over stdio):
 * the source reads the list again when the server says it changed, a removed tool is no longer called,
 * a new one gets the same safety fields as the others, and an agent given the source itself offers the
 * new list to the model on its next turn, without a restart. Real processes: waits are on the system
 * clock, no assertion is on a timing.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent } from '../../agent/index.js';
import { defineFlow } from '../../flow/index.js';
import { createMemoryStore } from '../../store/index.js';
import { createScriptedModel, type ScriptStep } from '../../test/index.js';
import { systemClock } from '../../util/index.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';
import type { ToolDefinition } from '../tool-definition.js';
import type { McpToolsChange, McpToolsOptions } from './mcp-server-options.js';
import { type McpToolSource, mcpTools } from './mcp-tools.js';

const server = join(import.meta.dirname, 'fixtures', 'changing-mcp-server.ts');
const dir = mkdtempSync(join(tmpdir(), 'flowstack-mcp-changing-'));
const sources: McpToolSource[] = [];
afterAll(async () => {
  await Promise.all(sources.map((s) => s.close()));
});

async function open(name: string, options: Partial<McpToolsOptions> = {}) {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, '');
  const changes: McpToolsChange[] = [];
  const source = await mcpTools({
    command: process.execPath,
    args: ['--import', 'tsx', server],
    env: { CALL_LOG: log },
    name,
    onToolsChanged: (change) => changes.push(change),
    ...options,
  });
  sources.push(source);
  const ran = () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
  return { source, changes, ran };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error('condition never held');
}

const names = (tools: readonly ToolDefinition[]) => tools.map((t) => t.name).sort();
const safetyFields = ({ capability, idempotent, parallel, requiresApproval, ...rest }: ToolDefinition) => ({
  capability,
  idempotent,
  parallel,
  requiresApproval,
  accessesPrivateData: rest.accessesPrivateData,
  receivesUntrustedInput: rest.receivesUntrustedInput,
  communicatesExternally: rest.communicatesExternally,
});

describe('mcpTools when the server changes its tool list', () => {
  it('reads the list again: a removed tool is not called, a new one has the same safety fields', async () => {
    // Not trusted: every tool, old or new, gets the worst case (approval and private data turned off
    // here so that the calls run without a person).
    const { source, changes, ran } = await open('untrusted', {
      approval: 'never',
      accessesPrivateData: false,
    });
    const first = source.tools;
    const copy = [...source.tools];
    expect(names(first)).toEqual(['enable_reports', 'legacy_report']);
    const context = createTestContext(copy, { clock: systemClock });
    const [enabled] = await executeToolBatch([call('enable_reports', {}, 'e1')], context);
    expect(enabled).toMatchObject({ status: 'success', output: 'reports enabled' });

    await until(() => changes.length > 0);
    expect(changes[0]).toMatchObject({ added: ['monthly_report'], removed: ['legacy_report'] });
    expect(names(source.tools)).toEqual(['enable_reports', 'monthly_report']);
    expect(source.tools).not.toBe(first);
    const kept = source.tools.find((t) => t.name === 'enable_reports');
    expect(kept).toBe(first.find((t) => t.name === 'enable_reports'));
    const added = source.tools.find((t) => t.name === 'monthly_report') as ToolDefinition;
    expect(safetyFields(added)).toEqual(safetyFields(kept as ToolDefinition));
    expect(safetyFields(added)).toMatchObject({ capability: 'restricted', idempotent: false });

    // The copy made before the change still holds the removed tool: its call fails without the server.
    const [removed] = await executeToolBatch([call('legacy_report', {}, 'l1')], context);
    expect(removed).toMatchObject({ status: 'error', error: { category: 'not_found' } });
    expect(removed?.contextText).toContain("no longer offers the tool 'legacy_report'");
    const [monthly] = await executeToolBatch(
      [call('monthly_report', { month: 'May' }, 'm1')],
      createTestContext(source.tools, { clock: systemClock }),
    );
    expect(monthly).toMatchObject({ status: 'success', output: 'report for May: 42 orders' });
    expect(ran()).toEqual(['enable_reports', 'monthly_report']);
  });

  it('an agent given the source offers the new list on its next turn, without a restart', async () => {
    const { source, changes, ran } = await open('trusted', { trust: 'trusted' });
    const flow = (name: string, tool: string) =>
      defineFlow({
        name,
        intent: 'read',
        description: `Run ${tool}.`,
        slots: [],
        tools: [tool],
        skill: `Use ${tool}.`,
      });
    const finish = (text: string): ScriptStep => ({
      match: { phase: 'skill' },
      toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { text } } }],
    });
    const model = createScriptedModel({
      steps: [
        { match: { phase: 'predict', lastUser: 'switch' }, json: { flow: 'switch', slots: {} } },
        { match: { phase: 'skill', flow: 'switch' }, toolCalls: [{ toolName: 'enable_reports', input: {} }] },
        { ...finish('Switched.'), match: { phase: 'skill', flow: 'switch' } },
        { match: { phase: 'predict', lastUser: 'May' }, json: { flow: 'monthly', slots: {} } },
        {
          match: { phase: 'skill', flow: 'monthly' },
          toolCalls: [{ toolName: 'monthly_report', input: { month: 'May' } }],
        },
        { ...finish('42 orders in May.'), match: { phase: 'skill', flow: 'monthly' } },
      ],
    });
    const agent = createAgent({
      model,
      flows: [flow('switch', 'enable_reports'), flow('monthly', 'monthly_report')],
      tools: [source],
      store: createMemoryStore(),
    });
    const switched = await agent.send({ threadId: 't', text: 'switch to the new reports' });
    expect(switched.reply).toBe('Switched.');
    await until(() => changes.length > 0);

    const monthly = await agent.send({ threadId: 't', text: 'How did May go?' });
    await agent.close();
    expect(monthly.reply).toBe('42 orders in May.');
    const offered = model.calls
      .filter((c) => c.phase === 'skill' && c.flow === 'monthly')
      .map((c) => c.toolNames);
    expect(offered[0]).toContain('monthly_report');
    expect(ran()).toEqual(['enable_reports', 'monthly_report']);
  });
});
