/**
 * The content blocks of an MCP tool result as text for the model: text as it is, binary content
 * (images, audio, blobs) as a short description rather than base64 the model cannot use.
 */

/** The content block shapes of MCP `CallToolResult.content` this reads (others are described by type). */
type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; text?: string; blob?: string; mimeType?: string } }
  | { type: 'resource_link'; uri: string; name?: string }
  | { type: string };

export function renderMcpContent(content: readonly unknown[] | undefined): string {
  return (content ?? []).map((block) => renderBlock(block as ContentBlock)).join('\n');
}

function renderBlock(block: ContentBlock): string {
  if ('text' in block && block.type === 'text') return block.text;
  if ('data' in block) return `[${block.type} ${block.mimeType}, ${bytesOf(block.data)} bytes]`;
  if ('resource' in block) {
    const { uri, text, blob, mimeType } = block.resource;
    if (text !== undefined) return `[resource ${uri}]\n${text}`;
    return `[resource ${uri}${mimeType ? ` (${mimeType})` : ''}, ${bytesOf(blob ?? '')} bytes]`;
  }
  if ('uri' in block) return `[resource link: ${block.name ?? block.uri} <${block.uri}>]`;
  return `[${block.type} content]`;
}

function bytesOf(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}
