/**
 * Arguments of a call held for approval are sealed at rest (docs/decisions/0078): no byte of the SQLite
 * store's folder holds the secret while the call waits, and once approved — in this agent or in another
 * one opened on the same file, as `flowstack approve` does — the tool receives the real value. Under a key
 * the approving process does not have, the call never runs with a redaction marker.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineFlow } from '../flow/index.js';
import { secrets } from '../redact/fixtures/fake-secrets.js';
import { createSqliteStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { createAgent } from './index.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

const token = secrets.githubClassic;

function rotatingAgent(path: string, ran: unknown[]) {
  const rotate = defineTool({
    name: 'rotate_secret',
    description: 'Stores a new deploy token.',
    input: z.object({ repo: z.string(), token: z.string() }),
    capability: 'restricted',
    execute: (input) => {
      ran.push(input);
      return 'stored';
    },
  });
  const flow = defineFlow({
    name: 'rotate',
    intent: 'transform',
    description: 'Rotate the deploy token.',
    slots: [],
    tools: ['rotate_secret'],
    skill: 'Store the new token.',
  });
  const model = createScriptedModel({
    steps: [
      { match: { phase: 'predict' }, json: { flow: 'rotate', slots: {} }, repeat: true },
      {
        match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
        toolCalls: [{ toolName: 'rotate_secret', input: { repo: 'acme/app', token } }],
      },
      {
        match: { phase: 'skill' },
        repeat: true,
        toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'Done.' } } }],
      },
    ],
  });
  return createAgent({
    model,
    flows: [flow],
    tools: [rotate],
    store: createSqliteStore({ path }),
    toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
  });
}

function folderBytes(dir: string): string {
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name)).toString('latin1'))
    .join('\n');
}

describe('a call held for approval with a secret in its arguments', () => {
  it('leaves no byte of the secret in the store folder, and the approved tool gets the real value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-sealed-'));
    const path = join(dir, 'flowstack.db');
    const ran: unknown[] = [];
    const serving = rotatingAgent(path, ran);
    const first = await serving.send({ threadId: 'ops', text: 'rotate the token' });
    const question = first.suspensions?.[0];
    expect(question).toMatchObject({ kind: 'approval' });
    expect(JSON.stringify(question)).not.toContain(token);

    expect(folderBytes(dir)).not.toContain(token);
    // The key was made once, beside the database, readable by its owner alone.
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);

    // Approved from another agent on the same file (as `flowstack approve` does from a new process).
    const approving = rotatingAgent(path, ran);
    const done = await approving.resume({
      threadId: 'ops',
      suspensionId: question?.id ?? '',
      feedback: { decision: 'approve' },
    });
    await approving.close();
    await serving.close();
    expect(done.status).toBe('completed');
    expect(ran).toEqual([{ repo: 'acme/app', token }]);
    expect(folderBytes(dir)).not.toContain(token);
  });

  it('is never run with a redaction marker when the approving process has another key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-sealed-'));
    const path = join(dir, 'flowstack.db');
    const ran: unknown[] = [];
    vi.stubEnv('FLOWSTACK_SECRET_KEY', Buffer.alloc(32, 1).toString('base64'));
    const serving = rotatingAgent(path, ran);
    const first = await serving.send({ threadId: 'ops', text: 'rotate the token' });
    await serving.close();
    expect(folderBytes(dir)).not.toContain(token);

    vi.stubEnv('FLOWSTACK_SECRET_KEY', Buffer.alloc(32, 2).toString('base64'));
    const approving = rotatingAgent(path, ran);
    const done = await approving.resume({
      threadId: 'ops',
      suspensionId: first.suspensions?.[0]?.id ?? '',
      feedback: { decision: 'approve' },
    });
    const history = await approving.store.readHistory('ops');
    await approving.close();
    expect(ran).toEqual([]);
    expect(done.observations.find((o) => o.type === 'tool-execution')?.data).toMatchObject({
      toolName: 'rotate_secret',
      status: 'error',
    });
    const results = history.filter((row) => row.kind === 'tool-result').map((row) => row.data);
    expect(results.join()).toMatch(/Ask the user for them again/);
  });

  it('refuses a key that is not 32 bytes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-sealed-'));
    vi.stubEnv('FLOWSTACK_SECRET_KEY', 'c2hvcnQ=');
    expect(() => rotatingAgent(join(dir, 'flowstack.db'), [])).toThrow(/32 random bytes/);
  });
});
