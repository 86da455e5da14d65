/**
 * The A2A endpoint: the agent card (public) and the JSON-RPC transport at `/a2a` (bearer token; the
 * task's thread belongs to the token's principal). Built on the first request, so that the card can
 * name the address clients used when no base URL was configured.
 */
import type { Hono } from 'hono';
import { type A2AHandler, createA2AHandler, createAgentCard } from '../../a2a/index.js';
import type { Authenticate } from '../auth/create-token-auth.js';
import { problem, problemResponse } from '../problem-details.js';
import type { A2AServerOptions, ServerContext, ServerEnv } from '../server-types.js';

export function mountA2A(
  app: Hono<ServerEnv>,
  context: ServerContext,
  options: A2AServerOptions & { authenticate: Authenticate },
): void {
  let handler: A2AHandler | undefined;
  const handlerFor = (requestUrl: string): A2AHandler => {
    handler ??= createA2AHandler({
      port: context.agent,
      card: createAgentCard({
        name: options.name,
        description: options.description,
        url: `${options.baseUrl ?? new URL(requestUrl).origin}/a2a`,
        ...(options.version !== undefined ? { version: options.version } : {}),
        ...(options.skills ? { skills: options.skills } : {}),
      }),
      ids: context.ids,
      clock: context.clock,
    });
    return handler;
  };
  app.get('/.well-known/agent-card.json', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.json(handlerFor(c.req.url).card);
  });
  app.post('/a2a', async (c) => {
    const principal = options.authenticate(c.req.header('authorization'));
    if (principal === undefined)
      return problemResponse(problem(401, 'unauthorized', 'Send Authorization: Bearer <token>.'), {
        'WWW-Authenticate': 'Bearer realm="flowstack"',
      });
    return handlerFor(c.req.url).handleJsonRpc(c.req.raw, { principal });
  });
}
