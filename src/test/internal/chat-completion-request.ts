import { z } from 'zod';

const contentSchema = z.union([
  z.string(),
  z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
  z.null(),
]);

/** The fields of an OpenAI chat-completions request that the test server reads; others pass through. */
export const chatCompletionRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(
    z.looseObject({
      role: z.string(),
      content: contentSchema.optional(),
      tool_calls: z
        .array(z.looseObject({ function: z.looseObject({ name: z.string(), arguments: z.string() }) }))
        .optional(),
    }),
  ),
  tools: z.array(z.looseObject({ function: z.looseObject({ name: z.string() }) })).optional(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
});

/** A chat-completions request body as the OpenAI wire format sends it. */
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

/** What the test server matches on and describes: the last user text and the offered tool names. */
export function readRequestContext(request: ChatCompletionRequest): {
  lastUser: string | undefined;
  toolNames: string[];
  promptCharacters: number;
} {
  const lastUser = request.messages.findLast((message) => message.role === 'user');
  let promptCharacters = 0;
  for (const message of request.messages) {
    promptCharacters += readText(message.content).length;
    for (const call of message.tool_calls ?? [])
      promptCharacters += call.function.name.length + call.function.arguments.length;
  }
  return {
    lastUser: lastUser === undefined ? undefined : readText(lastUser.content),
    toolNames: (request.tools ?? []).map((tool) => tool.function.name),
    promptCharacters,
  };
}

function readText(content: z.infer<typeof contentSchema> | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .flatMap((part) => (part.type === 'text' && part.text !== undefined ? [part.text] : []))
    .join('\n');
}
