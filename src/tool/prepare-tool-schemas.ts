import { compileSchema } from './compile-schema.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * Builds each tool's validators before its first call: its input and output schemas are compiled (Ajv
 * caches the validators), and its own parser (a Zod schema's) is run once on an empty object, which makes
 * Zod build its checks. The verdicts are dropped and no tool is called. A worker does this when it starts
 * (`agent.warmUp()`), so that its first call of each tool — often a crashed worker's call it takes over —
 * does not pay for building them (docs/decisions/0090). Never throws: a schema that does not compile, or a
 * parser that throws, fails the tool's first call as it would have.
 *
 * @returns how many tools were prepared.
 */
export async function prepareToolSchemas(tools: Iterable<ToolDefinition>): Promise<number> {
  let prepared = 0;
  for (const tool of tools) {
    try {
      compileSchema(tool.inputSchema);
      if (tool.outputSchema !== undefined) compileSchema(tool.outputSchema);
      await tool.parseInput?.({});
      prepared++;
    } catch {
      // Reported where it matters: at the tool's first call.
    }
  }
  return prepared;
}
