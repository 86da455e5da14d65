/**
 * One official `@a2a-js/sdk` client per remote agent, created from its agent card on first use and
 * kept for the life of the pool. A card that cannot be read is not cached, so a later call tries again.
 */
import type { AgentCard } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { A2AAgentReference } from './a2a-agent-reference.js';
import { loadA2AClientSdk } from './internal/load-a2a-sdk.js';

export interface A2AConnection {
  agent: A2AAgentReference;
  client: Client;
  card: AgentCard;
  /** Whether results come by streaming (else by polling). */
  streaming: boolean;
}

export interface A2AClientPool {
  readonly agents: ReadonlyMap<string, A2AAgentReference>;
  connect(agentId: string): Promise<A2AConnection>;
}

export function createA2AClientPool(
  agents: readonly A2AAgentReference[],
  options: { fetch?: typeof fetch } = {},
): A2AClientPool {
  const byId = new Map(agents.map((a) => [a.id, a]));
  const connections = new Map<string, Promise<A2AConnection>>();
  const fetchImpl = options.fetch ?? fetch;
  async function open(agent: A2AAgentReference): Promise<A2AConnection> {
    const {
      ClientFactory,
      ClientFactoryOptions,
      DefaultAgentCardResolver,
      JsonRpcTransportFactory,
      RestTransportFactory,
    } = await loadA2AClientSdk();
    const withHeaders: typeof fetch = (input, init) =>
      fetchImpl(input, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), ...agent.headers },
      });
    const cardResolver = new DefaultAgentCardResolver({ fetchImpl: withHeaders });
    const card = await cardResolver.resolve(agent.url, agent.cardPath);
    const streaming =
      agent.mode === 'stream' || (agent.mode !== 'poll' && card.capabilities?.streaming === true);
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        cardResolver,
        clientConfig: { polling: !streaming },
        transports: [
          new JsonRpcTransportFactory({ fetchImpl: withHeaders }),
          new RestTransportFactory({ fetchImpl: withHeaders }),
        ],
      }),
    );
    const client = await factory.createFromAgentCard(card);
    return { agent, client, card, streaming };
  }
  return {
    agents: byId,
    connect(agentId) {
      const agent = byId.get(agentId);
      if (!agent) return Promise.reject(new Error(`No A2A agent named '${agentId}'.`));
      let connection = connections.get(agentId);
      if (!connection) {
        connection = open(agent);
        connections.set(agentId, connection);
        connection.catch(() => connections.delete(agentId));
      }
      return connection;
    },
  };
}
