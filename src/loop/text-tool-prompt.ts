/**
 * For a model without native tool calling (`toolCalling: 'text'`): the tools it may call and the call
 * syntax, as a block of its system prompt, since no tool is sent with the request. The syntax is the one
 * `parseSkillCalls` reads (seed 003): `<skill>name(arg="value", n=3)</skill>`, calls that may run together
 * inside `<parallel>…</parallel>`.
 */
import type { LanguageModelV3FunctionTool, LanguageModelV3Prompt } from '@ai-sdk/provider';

/** The block that tells the model how to call the offered tools in its text. */
export function describeTextTools(tools: readonly LanguageModelV3FunctionTool[]): string {
  const lines = tools.map(
    (tool) =>
      `- ${tool.name}: ${tool.description ?? ''}\n  arguments (JSON schema): ${JSON.stringify(tool.inputSchema)}`,
  );
  return [
    'You call tools by writing them in your answer, one call per block, arguments by name as JSON or Python literals:',
    '<skill>tool_name(argument="text", count=3)</skill>',
    'Calls that do not depend on each other may run together:',
    '<parallel><skill>tool_a(x="1")</skill><skill>tool_b(x="2")</skill></parallel>',
    'Write the calls and stop: their results come back in the next message. When the task is done, end with',
    '<skill>finish_skill(outcome="success", message="the reply the user reads")</skill>',
    'or simply answer the user in plain words with no call.',
    'Tools:',
    ...lines,
  ].join('\n');
}

/**
 * The prompt with the tool block added to its system message (the first one; a new one at the start when
 * there is none), so that providers that want a single leading system message take it.
 */
export function withTextTools(
  prompt: LanguageModelV3Prompt,
  tools: readonly LanguageModelV3FunctionTool[],
): LanguageModelV3Prompt {
  const block = describeTextTools(tools);
  const first = prompt[0];
  if (first?.role === 'system')
    return [{ ...first, content: `${first.content}\n\n${block}` }, ...prompt.slice(1)];
  return [{ role: 'system', content: block }, ...prompt];
}
