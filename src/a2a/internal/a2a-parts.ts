/**
 * Building and reading A2A v1 messages and parts (the SDK's protobuf-shaped types, every field set).
 */
import type { Message, Part } from '@a2a-js/sdk';
import { a2aSdk } from './load-a2a-sdk.js';

export function textPart(text: string): Part {
  return {
    content: { $case: 'text', value: text },
    metadata: undefined,
    filename: '',
    mediaType: 'text/plain',
  };
}

export function dataPart(value: unknown): Part {
  return {
    content: { $case: 'data', value },
    metadata: undefined,
    filename: '',
    mediaType: 'application/json',
  };
}

export function agentMessage(options: {
  messageId: string;
  contextId: string;
  taskId: string;
  parts: Part[];
  metadata?: Record<string, unknown>;
}): Message {
  return {
    messageId: options.messageId,
    contextId: options.contextId,
    taskId: options.taskId,
    role: a2aSdk().Role.ROLE_AGENT,
    parts: options.parts,
    metadata: options.metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The text of a message's text parts, joined by new lines. */
export function readText(message: Message): string {
  return message.parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** The value of the message's first data part, if any. */
export function readData(message: Message): unknown {
  for (const part of message.parts) if (part.content?.$case === 'data') return part.content.value;
  return undefined;
}
