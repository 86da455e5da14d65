/**
 * Whatever a tool throws — not only `Error`s — becomes a `server_error` result the model reads, and the
 * turn goes on. Each value here once escaped the pipeline (reading it threw again) and left the call
 * unsettled.
 */
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import type { Observation } from '../spec/index.js';
import { createSqliteStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { defineTool } from './define-tool.js';
import { oddThrownAccounts, oddThrownValues } from './fixtures/odd-thrown-values.js';

function shownToolResults(options: LanguageModelV3CallOptions): string {
  const texts: string[] = [];
  for (const message of options.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-result' && 'value' in part.output) texts.push(String(part.output.value));
  }
  return texts.join('\n');
}

describe('a tool that throws an odd value', () => {
  for (const [name, makeThrown] of Object.entries(oddThrownValues)) {
    it(`gives a server_error result the model reads, and the turn completes: ${name}`, async () => {
      const explode = defineTool({
        name: 'explode',
        description: 'Throws.',
        input: z.object({}),
        capability: 'controlled',
        idempotent: true,
        maxRetries: 0,
        execute: () => {
          throw makeThrown();
        },
      });
      const flow = defineFlow({
        name: 'boom',
        intent: 'read',
        description: 'Run the exploding tool.',
        slots: [],
        tools: ['explode'],
        skill: 'Call explode and report.',
      });
      const model = createScriptedModel({
        steps: [
          { match: { phase: 'predict' }, json: { flow: 'boom', slots: {} } },
          { match: { phase: 'skill' }, toolCalls: [{ toolName: 'explode', input: {} }] },
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
      const agent = createAgent({
        model,
        flows: [flow],
        tools: [explode],
        store: createSqliteStore({ path: ':memory:' }),
        ids: createSequentialIdGenerator(),
      });
      const progress: Observation[] = [];
      agent.subscribe((o) => progress.push(o), { progress: true });
      const turn = await agent.send({ threadId: 't', text: 'go' });
      await agent.close();
      expect(turn.status).toBe('completed');
      expect(turn.reply).toBe(`Saw: Error (server_error) from tool 'explode': ${oddThrownAccounts[name]}`);
      // The tool's failure is reported as the tool's, not as a defect of the pipeline.
      expect(turn.reply).not.toContain('The tool pipeline failed');
      expect(turn.reply).not.toMatch(/\[object Object\]|Cannot convert/);
      // The call settled: its timed execution was reported as a failure, not left open.
      const timed = progress.filter((o) => o.type === 'tool-execution' && 'durationMs' in o.data);
      expect(timed.map((o) => o.data)).toEqual([
        expect.objectContaining({ toolName: 'explode', status: 'error' }),
      ]);
    });
  }
});
