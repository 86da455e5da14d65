/**
 * `createAgent()`: the agent's options become one frozen configuration (`options/agent-config.ts`), and each
 * entry point runs on it — a message (`send-message.ts`), an answer to a suspension (`resume-thread.ts`),
 * a read or a rollback (`thread-views.ts`), a deletion (`delete-thread.ts`). A turn itself is the machine of `turn/turn-machine.ts` performed by
 * the shell of `run-turn.ts`; pseudo-code in docs/architecture/turn-machine.md.
 */
import { sweepFileSnapshots } from '../consistency/index.js';
import { type AgentConfig, type AgentOptions, resolveAgentConfig } from '../options/index.js';
import { dryRunStoreKind, type WarmUpReport, warmUpProcess } from '../replay/index.js';
import { prepareToolSchemas } from '../tool/index.js';
import type { Agent } from './agent-types.js';
import { deleteThread } from './delete-thread.js';
import { prepareFirstTurn } from './prepare-first-turn.js';
import { resumeThread } from './resume-thread.js';
import { sendMessage } from './send-message.js';
import { streamTurn } from './stream-turn.js';
import { readThreadView, rollbackThread } from './thread-views.js';

/**
 * Makes an agent from a model, its flows and its tools: `send` runs a turn of a thread, `resume` answers
 * a question a turn left open, `stream` yields a turn as it happens; every turn is saved in the store.
 *
 * @example
 * const agent = createAgent({ model, flows: [bookTrip], tools: [findFlights, bookFlight] });
 * const turn = await agent.send({ threadId: 'thread-1', text: 'Book me a flight to Lisbon' });
 * console.log(turn.reply);
 */
export function createAgent(options: AgentOptions): Agent {
  const config = resolveAgentConfig(options);
  prepareFirstTurn();
  const { store, files, clock, bus } = config;
  return {
    send: (sendOptions) => sendMessage(config, sendOptions),
    stream: (sendOptions) => streamTurn(config, sendOptions),
    resume: (resumeOptions) => resumeThread(config, resumeOptions),
    readThread: (threadId) => readThreadView(config, threadId),
    rollback: (rollbackOptions) => rollbackThread(config, rollbackOptions),
    deleteThread: (deleteOptions) => deleteThread(config, deleteOptions),
    subscribe: (listener, subscribeOptions) => bus.subscribe(listener, subscribeOptions),
    store,
    warmUp: () => warmUpAgent(config),
    sweepFileSnapshots: () =>
      files.keep
        ? sweepFileSnapshots({ store: files.store, keep: files.keep, now: clock.now() })
        : Promise.resolve({ threads: 0, removed: 0, failed: [] }),
    // Background flows still being saved are let finish first.
    close: () => config.liveTurns.drain().then(() => store.close()),
  };
}

/**
 * The process's dry run, on a store of the agent's kind, then the agent's own tools' schemas built
 * (docs/decisions/0032, 0090).
 */
async function warmUpAgent(config: AgentConfig): Promise<WarmUpReport> {
  const report = await warmUpProcess(createAgent, dryRunStoreKind(config.store));
  return { ...report, tools: await prepareToolSchemas(config.tools.values()) };
}
