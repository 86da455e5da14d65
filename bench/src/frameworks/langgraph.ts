/**
 * LangGraph.js: the prebuilt ReAct agent (`createReactAgent`) with `tool()` definitions from
 * `@langchain/core/tools` (Zod schemas), optionally with a checkpointer (`SqliteSaver`,
 * `PostgresSaver`) that saves a checkpoint after every super-step. The model is a minimal
 * `BaseChatModel` subclass, LangChain's documented way to write a chat model: `@langchain/core`'s
 * fake chat models replay a fixed list and cannot answer from the conversation.
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { timeModel } from '../shared/meter.js';
import { isRequest, nextAction, parsePlan } from '../shared/plan.js';
import { addTool, lookupTool, upperTool } from '../shared/tools.js';
import type { AgentSetup, BenchAgent, Framework } from './framework.js';

/** Answers from the conversation: the plan in the last human message, the tool messages after it. */
class BenchChatModel extends BaseChatModel {
  calls: BaseMessage[][] = [];

  _llmType(): string {
    return 'bench';
  }

  override bindTools(tools: unknown[]) {
    return this.withConfig({ tools } as Record<string, unknown>);
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls.push(messages);
    return timeModel(() => {
      let request = '';
      let done = 0;
      for (const message of messages) {
        if (message.type === 'human' && typeof message.content === 'string' && isRequest(message.content)) {
          request = message.content;
          done = 0;
        } else if (message.type === 'tool') {
          done++;
        }
      }
      const action = nextAction(parsePlan(request), done);
      const message =
        action.kind === 'answer'
          ? new AIMessage(action.text)
          : new AIMessage({
              content: '',
              tool_calls: action.calls.map((c) => ({
                id: c.callId,
                name: c.toolName,
                args: c.input,
                type: 'tool_call' as const,
              })),
            });
      return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
    });
  }
}

const tools = [
  tool((input) => addTool.execute(input), {
    name: 'add',
    description: addTool.description,
    schema: addTool.input,
  }),
  tool((input) => upperTool.execute(input), {
    name: 'upper',
    description: upperTool.description,
    schema: upperTool.input,
  }),
  tool((input) => lookupTool.execute(input), {
    name: 'lookup',
    description: lookupTool.description,
    schema: lookupTool.input,
  }),
];

interface Saver {
  checkpointer: BaseCheckpointSaver | undefined;
  describe(): Promise<string>;
  close(): Promise<void>;
}

async function createSaver(setup: AgentSetup): Promise<Saver> {
  switch (setup.persistence) {
    case 'none':
      return {
        checkpointer: undefined,
        describe: async () => 'none (no checkpointer)',
        close: async () => {},
      };
    case 'sqlite': {
      const { SqliteSaver } = await import('@langchain/langgraph-checkpoint-sqlite');
      if (!setup.sqlitePath) throw new Error('Missing the SQLite path.');
      const saver = SqliteSaver.fromConnString(setup.sqlitePath);
      return {
        checkpointer: saver,
        describe: async () => {
          const mode = saver.db.pragma('journal_mode', { simple: true });
          const sync = ['OFF', 'NORMAL', 'FULL', 'EXTRA'][
            Number(saver.db.pragma('synchronous', { simple: true }))
          ];
          return `SqliteSaver, journal_mode=${String(mode).toUpperCase()}, synchronous=${sync} (saver defaults); a checkpoint per super-step`;
        },
        close: async () => {
          saver.db.close();
        },
      };
    }
    case 'postgres': {
      const { PostgresSaver } = await import('@langchain/langgraph-checkpoint-postgres');
      if (!setup.postgresUrl) throw new Error('Missing the PostgreSQL URL.');
      const saver = PostgresSaver.fromConnString(setup.postgresUrl, {
        schema: setup.postgresSchema ?? 'langgraph_bench',
      });
      await saver.setup();
      return {
        checkpointer: saver,
        describe: async () => 'PostgresSaver (saver defaults); a checkpoint per super-step',
        close: () => saver.end(),
      };
    }
    case 'sqlite-full':
      throw new Error('Not a LangGraph variant.');
  }
}

async function createBenchAgent(setup: AgentSetup): Promise<BenchAgent> {
  const saver = await createSaver(setup);
  const model = new BenchChatModel({});
  const agent = createReactAgent({
    llm: model,
    tools,
    ...(saver.checkpointer ? { checkpointer: saver.checkpointer } : {}),
  });
  const config = (threadId: string) => ({
    configurable: { thread_id: threadId },
    recursionLimit: 2 * setup.maxSteps + 10,
  });
  const lastText = (state: { messages: BaseMessage[] }) => String(state.messages.at(-1)?.content ?? '');
  return {
    run: async (threadId, request) =>
      lastText(await agent.invoke({ messages: [{ role: 'user', content: request }] }, config(threadId))),
    // LangGraph continues from the last checkpoint when invoked with no new input.
    resume: async (threadId) => lastText(await agent.invoke(null, config(threadId))),
    clearMockLog: () => void model.calls.splice(0),
    describePersistence: () => saver.describe(),
    close: () => saver.close(),
  };
}

export const langgraph: Framework = {
  id: 'langgraph',
  label: 'LangGraph.js',
  packages: [
    '@langchain/langgraph',
    '@langchain/core',
    '@langchain/langgraph-checkpoint',
    '@langchain/langgraph-checkpoint-sqlite',
    '@langchain/langgraph-checkpoint-postgres',
  ],
  persistence: ['none', 'sqlite', 'postgres'],
  createAgent: createBenchAgent,
};
