import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/index.js';
import { createOperationsExample, type OperationsExample } from './index.js';
import { workspaceFiles } from './workspace.js';

const open: OperationsExample[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.agent.close()));
});

async function start(): Promise<OperationsExample> {
  const dir = mkdtempSync(join(tmpdir(), 'flowstack-operations-'));
  const example = await createOperationsExample({
    store: createMemoryStore(),
    env: {},
    workspace: join(dir, 'workspace'),
  });
  open.push(example);
  return example;
}

describe('the operations example on the official MCP filesystem server (stdio)', () => {
  it('reads the workspace, and changes a setting only after the user confirmed it', async () => {
    const example = await start();
    const send = (text: string) => example.agent.send({ threadId: 'ops', text });
    expect((await send('list config')).reply).toContain('[FILE] service.yaml');
    expect((await send('show config/service.yaml')).reply).toContain('log_level: info');

    const asked = await send('set log_level to debug in config/service.yaml');
    expect(asked.status).toBe('needs-input');
    expect(asked.reply).toContain('Shall I go ahead?');
    // The values to confirm read as words, not as `setting = log_level, value = debug`.
    expect(asked.reply).toContain('(setting: log_level, value: debug, path: config/service.yaml)');
    const config = join(example.workspace, 'config/service.yaml');
    expect(readFileSync(config, 'utf8')).toBe(workspaceFiles['config/service.yaml']);

    // The yes covered the values shown; the edit carries text the user has not seen, so it is shown
    // as a call of its own (ADR 0056) and runs only on a second yes. The server is trusted, so the call
    // is named by its title (ADR 0088).
    const edit = await send('yes');
    expect(edit.status).toBe('suspended');
    expect(edit.reply).toContain(
      'Edit File (path: "config/service.yaml", edits: [{"oldText":"log_level: info","newText":"log_level: debug"}])?',
    );
    expect(readFileSync(config, 'utf8')).toBe(workspaceFiles['config/service.yaml']);
    const done = await send('yes');
    expect(done.reply).toBe('Set log_level to debug in config/service.yaml.');
    expect(readFileSync(config, 'utf8')).toBe(
      (workspaceFiles['config/service.yaml'] as string).replace('log_level: info', 'log_level: debug'),
    );
  });

  it('holds the post to the team at the lethal-trifecta gate once a log file entered the context', async () => {
    const example = await start();
    const turn = await example.agent.send({ threadId: 'ops', text: 'tell the team about logs/incident.log' });
    expect(turn.status).toBe('suspended');
    const suspended = turn.observations.find((o) => o.type === 'suspended');
    expect(suspended?.data).toMatchObject({ toolName: 'post_to_chat' });
    expect(String(suspended?.data.reason)).toContain('lethal trifecta');
    // The file was read through the MCP server; nothing was posted.
    expect(turn.observations.filter((o) => o.type === 'tool-call').map((o) => o.data.toolName)).toEqual([
      'fs_read_text_file',
      'post_to_chat',
    ]);
    expect(existsSync(example.outbox)).toBe(false);
  });

  it('cannot read outside its workspace: the MCP server refuses, and the flow fails with its reason', async () => {
    const example = await start();
    const turn = await example.agent.send({ threadId: 'ops', text: 'show ../../../etc/passwd' });
    expect(turn.status).toBe('failed');
    expect(turn.reply).toMatch(/denied|outside|not allowed/i);
  });
});
