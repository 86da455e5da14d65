/**
 * The agent's MCP server over Streamable HTTP as a fetch handler (`Request` → `Response`), to mount in
 * Hono, Next.js, Bun or a Node server of one's own at a path such as `/mcp`. Stateless: each request gets a server and transport of its own, so any
 * instance behind a load balancer can answer it. Elicitation needs a session, so approvals over HTTP go
 * through the `approve` tool.
 */
import { createMcpServer, type McpServerOptions } from './create-mcp-server.js';

export type McpHttpHandler = (request: Request) => Promise<Response>;

export type McpHttpOptions = Omit<McpServerOptions, 'elicitApprovals' | 'principal'>;

export function createMcpHttpHandler(
  options: McpHttpOptions & {
    /** Who a request acts for (its threads' owner), e.g. from its bearer token; none when it returns undefined. */
    principalOf?: (request: Request) => string | undefined | Promise<string | undefined>;
  },
): McpHttpHandler {
  return async (request) => {
    const principal = await options.principalOf?.(request);
    return handleMcpRequest(request, { ...options, ...(principal !== undefined ? { principal } : {}) });
  };
}

/** Answers one MCP request over Streamable HTTP for `principal`. */
export async function handleMcpRequest(
  request: Request,
  options: McpHttpOptions & { principal?: string },
): Promise<Response> {
  const { WebStandardStreamableHTTPServerTransport } = await import(
    '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
  );
  const server = await createMcpServer({ ...options, elicitApprovals: false });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
