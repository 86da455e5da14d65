/**
 * The A2A agent card (protocol v1.0) of a flowstack agent: its JSON-RPC interface, streaming, bearer
 * authentication, and one skill per user-facing flow.
 */
import type { AgentCard, AgentSkill } from '@a2a-js/sdk';

export interface AgentCardOptions {
  name: string;
  description: string;
  /** The absolute URL of the JSON-RPC endpoint. */
  url: string;
  version?: string;
  skills?: ReadonlyArray<{
    id: string;
    name?: string;
    description: string;
    examples?: string[];
    tags?: string[];
  }>;
  /** Advertise bearer-token authentication (default true). */
  bearer?: boolean;
}

export function createAgentCard(options: AgentCardOptions): AgentCard {
  const bearer = options.bearer !== false;
  const skills: AgentSkill[] = (options.skills ?? []).map((skill) => ({
    id: skill.id,
    name: skill.name ?? skill.id,
    description: skill.description,
    tags: skill.tags ?? [],
    examples: skill.examples ?? [],
    inputModes: [],
    outputModes: [],
    securityRequirements: [],
  }));
  return {
    name: options.name,
    description: options.description,
    supportedInterfaces: [
      { url: options.url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    ],
    provider: undefined,
    version: options.version ?? '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: bearer
      ? {
          bearer: {
            scheme: {
              $case: 'httpAuthSecurityScheme',
              value: { description: 'A flowstack bearer token', scheme: 'Bearer', bearerFormat: '' },
            },
          },
        }
      : {},
    securityRequirements: bearer ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills,
    signatures: [],
  };
}
