/**
 * The operations example: an assistant that works on a workspace's files through the official MCP
 * filesystem server (`@modelcontextprotocol/server-filesystem`, spawned over stdio), whose edits wait
 * for approval and whose posts to the team are held by the lethal-trifecta gate. Offline on its
 * scripted demo model; live with `FLOWSTACK_MODEL`.
 */
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import {
  type Agent,
  ConfigurationError,
  createAgent,
  mcpTools,
  type RateLimiter,
  resolveModelFromEnv,
  type StateStore,
} from '../../src/index.js';
import { createOperationsDemoModel } from './demo-model.js';
import {
  createPostToChatTool,
  filesystemToolNames,
  inspectFilesFlow,
  notifyTeamFlow,
  operationsRules,
  updateConfigFlow,
} from './domain.js';
import { seedWorkspace } from './workspace.js';

export interface OperationsExample {
  agent: Agent;
  modelDescription: string;
  /** The directory the filesystem server may touch. */
  workspace: string;
  /** Where `post_to_chat` writes what it posts (one JSON line each). */
  outbox: string;
  demoConversation: string[];
}

export async function createOperationsExample(
  options: {
    store?: StateStore;
    model?: LanguageModelV3;
    env?: NodeJS.ProcessEnv;
    workspace?: string;
    /** Shared by every process of a deployment (`flowstack/redis`); default: this process's own. */
    rateLimiter?: RateLimiter;
  } = {},
): Promise<OperationsExample> {
  const fromEnv = options.model ? undefined : resolveModelFromEnv(options.env ?? process.env);
  const model = options.model ?? fromEnv?.model ?? createOperationsDemoModel();
  const modelDescription = options.model
    ? `${model.provider}:${model.modelId}`
    : (fromEnv?.description ??
      'the bundled scripted demo model (no LLM is called; set FLOWSTACK_MODEL to use one)');
  const workspace = seedWorkspace(resolve(options.workspace ?? '.flowstack/operations-workspace'));
  const outbox = join(dirname(workspace), 'operations-outbox.jsonl');
  const server = resolveFilesystemServer();
  const filesystem = await mcpTools({
    command: process.execPath,
    args: [server, workspace],
    cwd: workspace,
    name: 'filesystem',
    prefix: 'fs_',
    include: filesystemToolNames,
    // The official filesystem server, installed from npm and pinned: its annotations are believed.
    trust: 'trusted',
    // Logs hold what outsiders wrote: a file's text is untrusted input.
    overrides: { read_text_file: { receivesUntrustedInput: true } },
  });
  const agent = createAgent({
    model,
    flows: [inspectFilesFlow, updateConfigFlow, notifyTeamFlow],
    tools: [...filesystem.tools, createPostToChatTool(outbox)],
    rules: operationsRules,
    persona: 'You are an operations assistant. Be brief. Change nothing you were not asked to change.',
    ...(options.rateLimiter ? { toolPipeline: { rateLimiter: options.rateLimiter } } : {}),
    ...(options.store ? { store: options.store } : {}),
  });
  const close = agent.close;
  return {
    agent: {
      ...agent,
      close: async () => {
        await close();
        await filesystem.close();
      },
    },
    modelDescription,
    workspace,
    outbox,
    demoConversation: [
      'list config',
      'show config/service.yaml',
      'set log_level to debug in config/service.yaml',
      'yes',
      'yes',
      'show config/service.yaml',
      'tell the team about logs/incident.log',
    ],
  };
}

/**
 * The example's file tools come from the reference MCP filesystem server, which flowstack does not
 * depend on: an installed flowstack says what to install instead of failing with a stack trace.
 */
function resolveFilesystemServer(): string {
  try {
    return createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
  } catch (error) {
    throw new ConfigurationError({
      message:
        'The operations example runs the MCP filesystem server: install it to run the example (npm install @modelcontextprotocol/server-filesystem).',
      cause: error,
    });
  }
}
