/**
 * Loads one framework adapter by id: one adapter only, so a child process holds one framework in memory.
 */
import type { Framework, FrameworkId } from './framework.js';

/** Loads one adapter only, so a child process holds one framework in memory. */
export async function loadFramework(id: FrameworkId): Promise<Framework> {
  switch (id) {
    case 'flowstack':
      return (await import('./flowstack.js')).flowstack;
    case 'ai-sdk':
      return (await import('./ai-sdk.js')).aiSdk;
    case 'openai-agents':
      return (await import('./openai-agents.js')).openaiAgents;
    case 'langgraph':
      return (await import('./langgraph.js')).langgraph;
    case 'mastra':
      return (await import('./mastra.js')).mastra;
  }
}
