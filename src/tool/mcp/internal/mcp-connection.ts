/**
 * One live connection to an MCP server, made on first use and made again after the server died: a
 * call finding no connection connects first (one connect at a time). What the server last wrote to
 * stderr is kept, so that an error can say why it stopped. The SDK is imported when first needed,
 * so that flowstack users without MCP servers never load it. The server's word that its tool list
 * changed, and a connection made again (a restarted server may offer other tools), are passed on.
 */
import { basename } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ConfigurationError, messageOfThrown, ToolSourceError } from '../../../errors/index.js';
import type { McpConnectionStatus } from '../mcp-connection-status.js';
import type { McpToolsOptions } from '../mcp-server-options.js';

export interface McpConnection {
  readonly source: string;
  client(): Promise<Client>;
  /** Drops the connection after an error that broke it; the next call connects again. */
  reset(client: Client): void;
  /** Why the last connection ended, for error messages ('' when it did not). */
  lastLoss(): string;
  status(): McpConnectionStatus;
  close(): Promise<void>;
}

/** What the connection tells its owner. */
export interface McpConnectionEvents {
  /** The server sent `notifications/tools/list_changed`, or a connection was made again. */
  toolListChanged(): void;
}

const stderrTailChars = 1_000;

export function createMcpConnection(options: McpToolsOptions, events?: McpConnectionEvents): McpConnection {
  const source = `mcp:${options.name ?? defaultName(options)}`;
  let current: { client: Client; pid: () => number | undefined } | undefined;
  let connecting: Promise<Client> | undefined;
  let connects = 0;
  let loss = '';
  let closed = false;

  async function connect(): Promise<Client> {
    const { Client, StdioClientTransport, StreamableHTTPClientTransport } = await loadMcpSdk();
    let stderr = '';
    let pid: () => number | undefined = () => undefined;
    const transport =
      'command' in options
        ? new StdioClientTransport({
            command: options.command,
            args: [...(options.args ?? [])],
            ...(options.env ? { env: options.env } : {}),
            ...(options.cwd ? { cwd: options.cwd } : {}),
            stderr: 'pipe',
          })
        : new StreamableHTTPClientTransport(new URL(options.url), {
            requestInit: { headers: options.headers ?? {} },
          });
    if (transport instanceof StdioClientTransport) {
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-stderrTailChars);
      });
      pid = () => transport.pid ?? undefined;
    }
    const lastOutput = () => stderr.trim().split('\n').slice(-3).join(' | ');
    const client = new Client(
      { name: 'flowstack', version: '1' },
      {
        capabilities: {},
        // Read again by the owner, all pages, one reading at a time: the SDK's own reading is not needed.
        listChanged: {
          tools: { autoRefresh: false, debounceMs: 0, onChanged: () => events?.toolListChanged() },
        },
      },
    );
    client.onclose = () => {
      if (current?.client !== client) return;
      current = undefined;
      const said = lastOutput();
      loss = `the server stopped${said ? ` (its last output: ${said})` : ''}`;
    };
    try {
      await client.connect(transport, { timeout: options.connectTimeoutMs ?? 30_000 });
    } catch (error) {
      await client.close().catch(() => undefined);
      const said = lastOutput();
      throw new ToolSourceError({
        source,
        message: `Cannot connect to the MCP server ${describeTarget(options)}: ${messageOf(error)}${said ? ` (its output: ${said})` : ''}`,
        cause: error,
      });
    }
    connects++;
    loss = '';
    current = { client, pid };
    if (connects > 1) events?.toolListChanged();
    return client;
  }

  return {
    source,
    client() {
      if (closed)
        return Promise.reject(
          new ToolSourceError({ source, message: `The MCP source ${source} is closed.` }),
        );
      if (current) return Promise.resolve(current.client);
      connecting ??= connect().finally(() => {
        connecting = undefined;
      });
      return connecting;
    },
    reset(client) {
      if (current?.client !== client) return;
      current = undefined;
      loss ||= 'the connection broke';
      client.close().catch(() => undefined);
    },
    lastLoss: () => loss,
    status: () => ({ connected: current !== undefined, pid: current?.pid(), connects }),
    async close() {
      closed = true;
      const pending = connecting ? await connecting.catch(() => undefined) : undefined;
      const client = current?.client ?? pending;
      current = undefined;
      await client?.close().catch(() => undefined);
    },
  };
}

/**
 * The MCP SDK is an optional peer (it brings an HTTP server framework with it): loaded on the first
 * connection, and when it is not installed the error says what to install.
 */
async function loadMcpSdk() {
  try {
    const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]);
    return { Client, StdioClientTransport, StreamableHTTPClientTransport };
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    const missing =
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      String(message).includes('@modelcontextprotocol/sdk');
    if (!missing) throw error;
    throw new ConfigurationError({
      message:
        '@modelcontextprotocol/sdk is not installed: install it to use MCP tools (npm install @modelcontextprotocol/sdk).',
      cause: error,
    });
  }
}

function defaultName(options: McpToolsOptions): string {
  return 'command' in options ? basename(options.command) : new URL(options.url).host;
}

function describeTarget(options: McpToolsOptions): string {
  return 'command' in options
    ? `'${[options.command, ...(options.args ?? [])].join(' ')}'`
    : `at ${new URL(options.url).origin}`;
}

function messageOf(error: unknown): string {
  return messageOfThrown(error);
}
