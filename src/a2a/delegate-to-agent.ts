/**
 * `delegate_to_agent` (seed 002 A2A delegation): an opt-in tool that hands a sub-task to another agent
 * over A2A with the official `@a2a-js/sdk` client and returns its result as the tool result. The
 * delegation is journaled before it is sent and keyed by the call's idempotency key, so the tool is safe
 * to run again (a retry or a resume waits for the task already sent). A remote `input-required` becomes
 * a local suspension: the plan asks the user, and `answerDelegation` carries the answer back.
 */
import { z } from 'zod';
import type { StateStore } from '../spec/index.js';
import { defineTool, suspendToolCall, type ToolDefinition } from '../tool/index.js';
import type { Clock } from '../util/index.js';
import { type A2ADelegationLimits, defaultA2ADelegationLimits } from './a2a-agent-reference.js';
import type { A2AClientPool } from './create-a2a-client-pool.js';
import { delegateTask } from './delegate-task.js';

export const delegateToAgentToolName = 'delegate_to_agent';

export interface DelegateToAgentToolOptions {
  pool: A2AClientPool;
  store: StateStore;
  clock: Clock;
  limits?: Partial<A2ADelegationLimits>;
}

export function createDelegateToAgentTool(options: DelegateToAgentToolOptions): ToolDefinition {
  const limits = { ...defaultA2ADelegationLimits, ...options.limits };
  const agentIds = [...options.pool.agents.keys()];
  return defineTool({
    name: delegateToAgentToolName,
    description: `Hand a sub-task to another agent and wait for its result. Agents: ${agentIds.join(', ')}. Give the whole task in "input"; the agent does not see this conversation.`,
    input: z.object({
      agentId: z.string().min(1),
      input: z.string().min(1).max(32_000),
      taskType: z.string().max(100).optional(),
    }),
    // Safe to run again: the journaled record makes a second run wait for the task the first one sent.
    idempotent: true,
    maxRetries: 0,
    timeoutMs: limits.timeoutMs,
    capability: 'controlled',
    communicatesExternally: true,
    // Another agent's reply is written by something this agent does not control: it taints the thread.
    receivesUntrustedInput: true,
    execute: async ({ agentId, input, taskType }, context) => {
      if (!options.pool.agents.has(agentId))
        throw Object.assign(new Error(`No agent named '${agentId}'; known agents: ${agentIds.join(', ')}.`), {
          category: 'not_found',
        });
      const outcome = await delegateTask({
        ...options,
        limits,
        idempotencyKey: context.idempotencyKey,
        threadId: context.threadId,
        callId: context.callId,
        agentId,
        text: taskType ? `[${taskType}] ${input}` : input,
        signal: context.signal,
      });
      if (outcome.status === 'input-required')
        return suspendToolCall(`Agent '${agentId}' asks: ${outcome.question}`);
      if (outcome.status === 'failed')
        throw Object.assign(new Error(outcome.message), { category: 'server_error' });
      return { agentId, taskId: outcome.taskId, text: outcome.text, artifacts: outcome.artifacts };
    },
  }) as ToolDefinition;
}
