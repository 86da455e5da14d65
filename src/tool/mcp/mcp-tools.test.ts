/**
 * mcpTools against the official MCP servers, spawned for real: `server-everything` over stdio and over
 * streamable HTTP, and `server-filesystem` over stdio. Timeouts here run on the system clock because the
 * server is a real process; no assertion is on a timing.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolSourceError } from '../../errors/index.js';
import type { ApprovalLookup } from '../../spec/index.js';
import { systemClock } from '../../util/index.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';
import type { ToolBatchContext } from '../tool-batch-context.js';
import type { ToolDefinition } from '../tool-definition.js';
import { type McpToolSource, mcpTools } from './mcp-tools.js';

const modules = join(import.meta.dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol');
const everything = join(modules, 'server-everything', 'dist', 'index.js');
const filesystem = join(modules, 'server-filesystem', 'dist', 'index.js');

const sources: McpToolSource[] = [];
afterAll(async () => {
  await Promise.all(sources.map((s) => s.close()));
});

/** Connects; these servers are the official ones, so their annotations are believed unless told. */
async function open(options: Parameters<typeof mcpTools>[0]): Promise<McpToolSource> {
  const source = await mcpTools({ trust: 'trusted', ...options });
  sources.push(source);
  return source;
}

function contextFor(tools: readonly ToolDefinition[], overrides: Partial<ToolBatchContext> = {}) {
  return createTestContext(tools, { clock: systemClock, ...overrides });
}

function byName(source: McpToolSource, name: string): ToolDefinition {
  const tool = source.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${source.tools.map((t) => t.name).join(', ')}`);
  return tool;
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error('condition never held');
}

describe('mcpTools with server-everything over stdio', () => {
  it('lists the tools, maps their annotations, and calls them through the pipeline', async () => {
    const source = await open({
      command: process.execPath,
      args: [everything, 'stdio'],
      name: 'everything',
      overrides: { 'trigger-long-running-operation': { maxRetries: 0 } },
    });
    expect(source.source).toBe('mcp:everything');
    expect(source.skipped).toEqual([]);
    expect(source.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'get-env', 'gzip-file-as-resource']),
    );

    // A trusted server's words are shown to a person as the deployment's own.
    expect(byName(source, 'echo').untrustedDescription).toBeUndefined();
    // readOnly, closed world → safe, idempotent, parallel, no approval.
    expect(byName(source, 'echo')).toMatchObject({
      capability: 'safe',
      idempotent: true,
      parallel: true,
      requiresApproval: false,
      receivesUntrustedInput: false,
      communicatesExternally: false,
      accessesPrivateData: true,
    });
    // Not read-only, not destructive, idempotent, open world → controlled, tagged untrusted + external.
    expect(byName(source, 'gzip-file-as-resource')).toMatchObject({
      capability: 'controlled',
      idempotent: true,
      parallel: false,
      requiresApproval: false,
      receivesUntrustedInput: true,
      communicatesExternally: true,
    });
    // Not read-only, not destructive, not idempotent, closed world.
    expect(byName(source, 'toggle-simulated-logging')).toMatchObject({
      capability: 'controlled',
      idempotent: false,
    });

    const context = contextFor(source.tools);
    const results = await executeToolBatch(
      [
        call('echo', { message: 'hello' }, 'c1'),
        call('get-sum', { a: 2, b: 40 }, 'c2'),
        call('get-sum', { a: 'two', b: 40 }, 'c3'),
        call('gzip-file-as-resource', { name: 'x.gz', data: 'data:text/plain,hi' }, 'c4'),
      ],
      context,
    );
    expect(results[0]).toMatchObject({ status: 'success', output: 'Echo: hello' });
    expect(results[1]?.status === 'success' && String(results[1].output)).toContain('42');
    expect(results[2]).toMatchObject({ status: 'error', error: { category: 'validation_error' } });
    // All three trifecta tags on one tool (private data by default, open world): it waits for approval.
    expect(results[3]).toMatchObject({ status: 'suspended', kind: 'approval' });
  });

  it('passes the timeout on as a cancellation, and the connection stays usable', async () => {
    const source = await open({
      command: process.execPath,
      args: [everything, 'stdio'],
      overrides: { 'trigger-long-running-operation': { timeoutMs: 300, maxRetries: 0 } },
    });
    const context = contextFor(source.tools);
    const [slow] = await executeToolBatch(
      [call('trigger-long-running-operation', { duration: 30, steps: 30 }, 'slow')],
      context,
    );
    expect(slow).toMatchObject({ status: 'error', error: { category: 'timeout' } });
    const [after] = await executeToolBatch([call('echo', { message: 'still here' }, 'after')], context);
    expect(after).toMatchObject({ status: 'success', output: 'Echo: still here' });
    expect(source.status().connects).toBe(1);
  });

  it('gives a clear error when the server is killed during a call, and reconnects on the next call', async () => {
    const source = await open({
      command: process.execPath,
      args: [everything, 'stdio'],
      name: 'everything',
      overrides: { 'trigger-long-running-operation': { maxRetries: 0 } },
    });
    const context = contextFor(source.tools);
    const firstPid = source.status().pid;
    expect(firstPid).toBeTypeOf('number');
    const pending = executeToolBatch(
      [call('trigger-long-running-operation', { duration: 30, steps: 30 }, 'k1')],
      context,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(firstPid as number, 'SIGKILL');
    const [killed] = await pending;
    expect(killed).toMatchObject({ status: 'error', error: { category: 'server_error', retryable: true } });
    expect(killed?.contextText).toContain('The MCP server mcp:everything failed during the call');
    expect(killed?.contextText).toContain('restarted on the next call');

    const [next] = await executeToolBatch([call('echo', { message: 'back' }, 'k2')], context);
    expect(next).toMatchObject({ status: 'success', output: 'Echo: back' });
    expect(source.status()).toMatchObject({ connected: true, connects: 2 });
    expect(source.status().pid).not.toBe(firstPid);
  });

  it('reconnects without an error when the server died while idle', async () => {
    const source = await open({ command: process.execPath, args: [everything, 'stdio'] });
    process.kill(source.status().pid as number, 'SIGKILL');
    await until(() => !source.status().connected);
    const [result] = await executeToolBatch([call('echo', { message: 'again' })], contextFor(source.tools));
    expect(result).toMatchObject({ status: 'success', output: 'Echo: again' });
    expect(source.status().connects).toBe(2);
  });

  it('after close, a call fails with a clear error instead of spawning the server again', async () => {
    const source = await mcpTools({
      command: process.execPath,
      args: [everything, 'stdio'],
      name: 'closing',
      trust: 'trusted',
    });
    await source.close();
    const [result] = await executeToolBatch([call('echo', { message: 'x' })], contextFor(source.tools));
    expect(result).toMatchObject({ status: 'error', error: { category: 'server_error' } });
    expect(result?.contextText).toContain('The MCP source mcp:closing is closed.');
  });
});

describe('mcpTools with a server not configured as trusted', () => {
  it('ignores its annotations: a read-only, closed-world tool gets the worst-case defaults', async () => {
    const source = await open({ command: process.execPath, args: [everything, 'stdio'], trust: 'untrusted' });
    const worstCase = {
      capability: 'restricted',
      idempotent: false,
      parallel: false,
      receivesUntrustedInput: true,
      communicatesExternally: true,
      requiresApproval: true,
    };
    expect(byName(source, 'echo')).toMatchObject(worstCase);
    // Its words do not reach an approval prompt: the tool is shown by its name (ADR 0088).
    expect(byName(source, 'echo')).toMatchObject({ untrustedDescription: true });
    expect(byName(source, 'echo').title).toBeUndefined();
    // An override still vouches for one tool.
    const vouched = await open({
      command: process.execPath,
      args: [everything, 'stdio'],
      trust: 'untrusted',
      overrides: { echo: { capability: 'safe', requiresApproval: false } },
    });
    expect(byName(vouched, 'echo')).toMatchObject({
      ...worstCase,
      capability: 'safe',
      requiresApproval: false,
    });
    const [held] = await executeToolBatch([call('echo', { message: 'hi' })], contextFor(source.tools));
    expect(held).toMatchObject({ status: 'suspended', kind: 'approval' });
  });
});

describe('mcpTools with server-filesystem over stdio', () => {
  it('maps read, write and edit tools, runs reads, and holds destructive writes for approval', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-mcp-fs-'));
    writeFileSync(join(dir, 'notes.txt'), 'first line\nsecond line\n');
    const source = await open({
      command: process.execPath,
      args: [filesystem, dir],
      name: 'fs',
      prefix: 'fs_',
    });
    expect(byName(source, 'fs_read_text_file')).toMatchObject({
      capability: 'safe',
      idempotent: true,
      requiresApproval: false,
    });
    expect(byName(source, 'fs_write_file')).toMatchObject({
      capability: 'restricted',
      idempotent: true,
      requiresApproval: true,
    });
    expect(byName(source, 'fs_edit_file')).toMatchObject({
      capability: 'restricted',
      idempotent: false,
      requiresApproval: true,
    });
    expect(byName(source, 'fs_create_directory')).toMatchObject({
      capability: 'controlled',
      idempotent: true,
      requiresApproval: false,
    });
    expect(byName(source, 'fs_read_text_file').outputSchema).toBeDefined();

    const approvedKeys = new Set<string>();
    const approvals: ApprovalLookup = {
      isApproved: async ({ idempotencyKey }) => (approvedKeys.has(idempotencyKey) ? 'approved' : 'none'),
    };
    const context = contextFor(source.tools, { approvals });
    const target = join(dir, 'out.txt');
    const [read, write] = await executeToolBatch(
      [
        call('fs_read_text_file', { path: join(dir, 'notes.txt') }, 'r1'),
        call('fs_write_file', { path: target, content: 'hello' }, 'w1'),
      ],
      context,
    );
    expect(read).toMatchObject({ status: 'success', output: { content: 'first line\nsecond line\n' } });
    expect(write).toMatchObject({ status: 'suspended', kind: 'approval', toolName: 'fs_write_file' });

    approvedKeys.add('thread-1:turn-1:w1');
    const [approved] = await executeToolBatch(
      [call('fs_write_file', { path: target, content: 'hello' }, 'w1')],
      context,
    );
    expect(approved?.status).toBe('success');
    expect(readFileSync(target, 'utf8')).toBe('hello');
  });

  it('turns an isError result into a failure result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-mcp-fs-'));
    const source = await open({ command: process.execPath, args: [filesystem, dir], name: 'fs' });
    const [result] = await executeToolBatch(
      [call('read_text_file', { path: join(tmpdir(), 'outside-the-allowed-dir.txt') })],
      contextFor(source.tools),
    );
    expect(result).toMatchObject({ status: 'error', error: { category: 'server_error', retryable: false } });
    expect(result?.contextText).toMatch(/Access denied|outside allowed/i);
  });
});

describe('mcpTools over streamable HTTP', () => {
  it('lists and calls the tools of server-everything over HTTP, and reconnects after a restart', async () => {
    const port = await freePort();
    let server = await startHttpServer(port);
    try {
      const source = await open({ url: `http://127.0.0.1:${port}/mcp`, name: 'everything-http' });
      const context = contextFor(source.tools);
      const [first] = await executeToolBatch([call('echo', { message: 'over http' }, 'h1')], context);
      expect(first).toMatchObject({ status: 'success', output: 'Echo: over http' });

      server.kill('SIGKILL');
      await new Promise((resolve) => server.once('exit', resolve));
      const [down] = await executeToolBatch([call('toggle-simulated-logging', {}, 'h2')], context);
      expect(down).toMatchObject({ status: 'error', error: { category: 'server_error' } });
      expect(down?.contextText).toContain('mcp:everything-http');

      server = await startHttpServer(port);
      const [back] = await executeToolBatch([call('echo', { message: 'back' }, 'h3')], context);
      expect(back).toMatchObject({ status: 'success', output: 'Echo: back' });
      expect(source.status().connects).toBe(2);
    } finally {
      server.kill('SIGKILL');
    }
  });
});

describe('mcpTools with a server that cannot be reached', () => {
  it('rejects with a ToolSourceError naming the command', async () => {
    const error = await mcpTools({ command: 'flowstack-no-such-mcp-server', name: 'ghost' }).catch(
      (e: unknown) => e,
    );
    expect(ToolSourceError.isInstance(error)).toBe(true);
    expect((error as ToolSourceError).source).toBe('mcp:ghost');
    expect((error as Error).message).toContain(
      "Cannot connect to the MCP server 'flowstack-no-such-mcp-server'",
    );
  });

  it('rejects with a ToolSourceError for a server that exits at once, quoting its output', async () => {
    const script = "console.error('fatal: MY_API_URL is not set'); process.exit(3)";
    const error = await mcpTools({ command: process.execPath, args: ['-e', script] }).catch(
      (e: unknown) => e,
    );
    expect(ToolSourceError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('fatal: MY_API_URL is not set');
  });

  it('rejects with a ToolSourceError for a URL nobody listens on', async () => {
    const port = await freePort();
    const error = await mcpTools({ url: `http://127.0.0.1:${port}/mcp` }).catch((e: unknown) => e);
    expect(ToolSourceError.isInstance(error)).toBe(true);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startHttpServer(port: number) {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening')) resolve();
    });
    child.once('exit', () => reject(new Error(`HTTP server exited: ${output}`)));
  });
  return child;
}
