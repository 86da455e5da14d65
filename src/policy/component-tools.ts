/**
 * The component tools every skill gets besides its 1–3 flow tools (seed 000): the context
 * coordinator (conversation history), the memory manager (scratchpad read/write, preferences) and the
 * flow stack (slots and metadata of the current and previous flows). They are ordinary tools, so every
 * call passes the safety pipeline; what they write is collected in the workspace and applied to the
 * thread by the policy after the skill ends.
 */
import { z } from 'zod';
import { compileHistory, type HistoryMessage, readScratchpad, writeScratchpad } from '../memory/index.js';
import type { FlowInstance, ScratchpadEntry } from '../spec/index.js';
import { defineTool, runScopeOf, type ToolDefinition, type ToolExecutionContext } from '../tool/index.js';
import type { Clock } from '../util/index.js';

/** Names of the component tools; a domain tool may not use them. */
export const componentToolNames = ['context_coordinator', 'memory_manager', 'flow_stack'] as const;

/** What the component tools of one skill run read and write. */
export interface SkillWorkspace {
  history: readonly HistoryMessage[];
  scratchpad: ScratchpadEntry[];
  preferences: Readonly<Record<string, unknown>>;
  /** The user-facing stack, top last. */
  stack: readonly FlowInstance[];
  /** Flows finished earlier (most recent last), with their results. */
  previous: readonly FlowInstance[];
  flowId: string;
  flowName: string;
  clock: Clock;
  maxScratchpadEntries: number;
  /** Keys the skill wrote. */
  written: string[];
}

const contextCoordinatorInput = z.object({ turns: z.number().int().min(1).max(20).optional() });
const memoryManagerInput = z.object({
  operation: z.enum(['read_scratchpad', 'write_scratchpad', 'read_preferences']),
  key: z.string().min(1).max(100).optional(),
  text: z.string().min(1).max(2_000).optional(),
  limit: z.number().int().min(1).max(64).optional(),
});
const flowStackInput = z.object({ which: z.enum(['current', 'previous', 'all']).optional() });

type ContextCoordinatorInput = z.infer<typeof contextCoordinatorInput>;
type MemoryManagerInput = z.infer<typeof memoryManagerInput>;
type FlowStackInput = z.infer<typeof flowStackInput>;

const unbound = () => {
  throw new Error('A component tool runs only with a skill workspace (createComponentTools).');
};

interface ComponentToolSpecs {
  contextCoordinator: ToolDefinition<ContextCoordinatorInput, unknown>;
  memoryManager: ToolDefinition<MemoryManagerInput, unknown>;
  flowStack: ToolDefinition<FlowStackInput, unknown>;
}

// The three definitions are built (schemas converted to JSON Schema and checked) once, when a skill first
// needs them rather than when flowstack is imported, with an `execute` that throws; the copies below get
// an `execute` that reads a workspace.
let specs: ComponentToolSpecs | undefined;

function componentToolSpecs(): ComponentToolSpecs {
  specs ??= {
    contextCoordinator: defineTool<ContextCoordinatorInput, unknown>({
      name: 'context_coordinator',
      description:
        'Read the conversation history as a transcript: the last `turns` turns (default 3, at most 20).',
      input: contextCoordinatorInput,
      idempotent: true,
      timeoutMs: 5_000,
      execute: unbound,
    }),
    memoryManager: defineTool<MemoryManagerInput, unknown>({
      name: 'memory_manager',
      description:
        'Session memory. operation "read_scratchpad" returns recent notes (optionally `key`), "write_scratchpad" saves `text` ' +
        '(a short finding, under `key` if given), "read_preferences" returns the user\'s preferences.',
      input: memoryManagerInput,
      idempotent: false,
      timeoutMs: 5_000,
      execute: unbound,
    }),
    flowStack: defineTool<FlowStackInput, unknown>({
      name: 'flow_stack',
      description:
        'Read the slots and metadata of the current flow ("current"), of the flows waiting below it and finished before it ("previous"), or both ("all").',
      input: flowStackInput,
      idempotent: true,
      timeoutMs: 5_000,
      execute: unbound,
    }),
  };
  return specs;
}

function coordinateContext(workspace: SkillWorkspace, { turns }: ContextCoordinatorInput) {
  return { transcript: compileHistory(workspace.history, { turns: turns ?? 3 }) };
}

function manageMemory(workspace: SkillWorkspace, { operation, key, text, limit }: MemoryManagerInput) {
  if (operation === 'read_preferences') return { preferences: workspace.preferences };
  if (operation === 'read_scratchpad') {
    const read = readScratchpad(workspace.scratchpad, {
      ...(key ? { keys: [key] } : {}),
      limit: limit ?? 10,
    });
    workspace.scratchpad.splice(0, workspace.scratchpad.length, ...read.entries);
    return { entries: read.found.map((e) => ({ key: e.key, text: e.text, source: e.source })) };
  }
  if (!text) return { error: 'write_scratchpad needs text' };
  const entryKey = key ?? `${workspace.flowId}:note:${workspace.written.length + 1}`;
  const next = writeScratchpad(
    workspace.scratchpad,
    { key: entryKey, text, source: workspace.flowName, time: workspace.clock.now() },
    { maxEntries: workspace.maxScratchpadEntries },
  );
  workspace.scratchpad.splice(0, workspace.scratchpad.length, ...next);
  workspace.written.push(entryKey);
  return { written: entryKey };
}

function readFlowStack(workspace: SkillWorkspace, { which }: FlowStackInput) {
  const current = workspace.stack.find((f) => f.id === workspace.flowId);
  const waiting = workspace.stack.filter((f) => f.id !== workspace.flowId);
  const describe = (f: FlowInstance) => ({
    name: f.name,
    status: f.status,
    slots: f.slots,
    ...(f.metadata ? { metadata: f.metadata } : {}),
    ...(f.result !== undefined ? { result: f.result } : {}),
  });
  const previous = [...waiting, ...workspace.previous].map(describe);
  if (which === 'previous') return { previous };
  if (which === 'all') return { current: current && describe(current), previous };
  return { current: current && describe(current) };
}

/**
 * The component tools of one skill run, reading and writing `workspace`. The copies share their JSON
 * Schema objects, so the compiled validators are shared too (`compileSchema` caches by identity).
 */
export function createComponentTools(workspace: SkillWorkspace): ToolDefinition[] {
  const { contextCoordinator, memoryManager, flowStack } = componentToolSpecs();
  return [
    {
      ...contextCoordinator,
      execute: (input: ContextCoordinatorInput) => coordinateContext(workspace, input),
    },
    { ...memoryManager, execute: (input: MemoryManagerInput) => manageMemory(workspace, input) },
    { ...flowStack, execute: (input: FlowStackInput) => readFlowStack(workspace, input) },
  ] as ToolDefinition[];
}

function workspaceOf(context: ToolExecutionContext): SkillWorkspace {
  const workspace = runScopeOf(context) as SkillWorkspace | undefined;
  if (!workspace)
    throw new Error('A component tool runs only inside a flow run (its batch has no runScope).');
  return workspace;
}

let shared: readonly ToolDefinition[] | undefined;

/**
 * The component tools shared by every skill run of the process: each call reads its run's workspace from
 * the batch it runs in (`ToolBatchContext.runScope`). A flow run then adds no tool objects, and its tool
 * set — the same from run to run — keeps the skill loop's cache of the tools offered to the model. Made on
 * the first call; every later call returns the same array.
 */
export function sharedComponentTools(): readonly ToolDefinition[] {
  const { contextCoordinator, memoryManager, flowStack } = componentToolSpecs();
  shared ??= [
    {
      ...contextCoordinator,
      execute: (input: ContextCoordinatorInput, context: ToolExecutionContext) =>
        coordinateContext(workspaceOf(context), input),
    },
    {
      ...memoryManager,
      execute: (input: MemoryManagerInput, context: ToolExecutionContext) =>
        manageMemory(workspaceOf(context), input),
    },
    {
      ...flowStack,
      execute: (input: FlowStackInput, context: ToolExecutionContext) =>
        readFlowStack(workspaceOf(context), input),
    },
  ] as ToolDefinition[];
  return shared;
}
