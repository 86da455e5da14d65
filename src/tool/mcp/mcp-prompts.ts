/**
 * An MCP server's prompts: listed, and one filled in with its arguments as text that the application
 * may use — as a flow's skill, a persona, the first message. A prompt is chosen by the application, by
 * name (the MCP specification makes prompts user-controlled); its text is the server's own, as much to
 * be trusted as the server is.
 */
import { messageOfThrown, ToolSourceError } from '../../errors/index.js';
import type { McpConnection } from './internal/mcp-connection.js';
import { renderMcpContent } from './internal/render-mcp-content.js';

/** A prompt a server offers, as `listPrompts` gives it. */
export interface McpPromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

/** A prompt filled in: its messages' text, and each message with its role. */
export interface McpPromptText {
  description?: string;
  /** The messages' text, one after the other, separated by a blank line. */
  text: string;
  messages: { role: 'user' | 'assistant'; text: string }[];
}

const maxPages = 20;

/** The server's prompts; none when it does not offer prompts (nothing to list is a true answer). */
export async function listMcpPrompts(connection: McpConnection): Promise<McpPromptInfo[]> {
  const client = await connection.client();
  if (!client.getServerCapabilities()?.prompts) return [];
  const prompts: McpPromptInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await client
      .listPrompts(cursor === undefined ? {} : { cursor })
      .catch((error: unknown) => failed(connection, 'did not list its prompts', error));
    for (const prompt of result.prompts)
      prompts.push({
        name: prompt.name,
        ...(prompt.title ? { title: prompt.title } : {}),
        ...(prompt.description ? { description: prompt.description } : {}),
        arguments: (prompt.arguments ?? []).map((argument) => ({
          name: argument.name,
          ...(argument.description ? { description: argument.description } : {}),
          required: argument.required === true,
        })),
      });
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return prompts;
}

/**
 * One prompt with its arguments filled in. A server that offers no prompts, an unknown name or a
 * missing argument is a `ToolSourceError` saying so: the caller asked for something that cannot be had.
 */
export async function getMcpPrompt(
  connection: McpConnection,
  name: string,
  args: Readonly<Record<string, string>> = {},
): Promise<McpPromptText> {
  const client = await connection.client();
  if (!client.getServerCapabilities()?.prompts)
    throw new ToolSourceError({
      source: connection.source,
      message: `The MCP server ${connection.source} offers no prompts, so it has no prompt '${name}'.`,
    });
  const result = await client
    .getPrompt({ name, arguments: { ...args } })
    .catch((error: unknown) => failed(connection, `did not give its prompt '${name}'`, error));
  const messages = result.messages.map((message) => ({
    role: message.role,
    text: renderMcpContent([message.content]),
  }));
  return {
    ...(result.description ? { description: result.description } : {}),
    text: messages.map((message) => message.text).join('\n\n'),
    messages,
  };
}

function failed(connection: McpConnection, what: string, error: unknown): never {
  throw new ToolSourceError({
    source: connection.source,
    message: `The MCP server ${connection.source} ${what}: ${messageOfThrown(error)}`,
    cause: error,
  });
}
