/**
 * What each framework adapter provides: one agent with the three tools and the framework's own mock
 * model, able to run a session to its answer, and (where the framework persists threads) to resume one.
 */

/** `none`: in memory. `sqlite`/`postgres`: durable after every step, with the framework's defaults. */
export type Persistence = 'none' | 'sqlite' | 'sqlite-full' | 'postgres';

export interface AgentSetup {
  persistence: Persistence;
  /** SQLite file, for `sqlite` and `sqlite-full`. */
  sqlitePath?: string;
  /** Connection string, for `postgres`. */
  postgresUrl?: string;
  /** The schema to create the tables in, for `postgres`: one per process (`orchestrate/prepare-postgres.ts`). */
  postgresSchema?: string;
  /** Upper bound on model calls per session; the scenario sets it above what the plan needs. */
  maxSteps: number;
  /** flowstack only: the lease TTL (the resume scenario lets a crashed worker's lease expire). */
  leaseTtlMs?: number;
}

export interface BenchAgent {
  /**
   * Runs one session (a new request on `threadId`) until the model answers; returns the answer. A framework
   * that keys requests for redelivery (flowstack's `requestId`) gets `requestId`; the others ignore it.
   */
  run(threadId: string, request: string, requestId?: string): Promise<string>;
  /**
   * Continues a thread whose process crashed mid-run, the framework's own way: for flowstack, the crashed
   * request delivered again under its `requestId`, as a queue or an HTTP retry does.
   */
  resume(threadId: string, request: string, requestId?: string): Promise<string>;
  /** Drops the mock model's record of past calls (kept by every mock; not the runtime's memory). */
  clearMockLog(): void;
  /** Facts about the persistence actually in use (journal mode, synchronous …), for the report. */
  describePersistence(): Promise<string>;
  close(): Promise<void>;
}

export interface Framework {
  id: FrameworkId;
  /** Human name in tables. */
  label: string;
  /** npm packages whose installed versions the report names. */
  packages: string[];
  persistence: readonly Persistence[];
  createAgent(setup: AgentSetup): Promise<BenchAgent>;
}

export type FrameworkId = 'flowstack' | 'ai-sdk' | 'openai-agents' | 'langgraph' | 'mastra';

export const frameworkIds: readonly FrameworkId[] = [
  'flowstack',
  'ai-sdk',
  'openai-agents',
  'langgraph',
  'mastra',
];
