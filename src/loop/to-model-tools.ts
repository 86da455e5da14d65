import type { JSONSchema7, LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import type { ToolSet } from '../tool/index.js';

/** The tools of a set as the model sees them: name, description and input schema. */
export function toModelTools(tools: ToolSet): LanguageModelV3FunctionTool[] {
  return [...tools.values()].map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as JSONSchema7,
  }));
}
