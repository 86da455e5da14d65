/**
 * The operations assistant's domain: read files, change a configuration setting, tell the team about
 * something. Files are reached only through the official MCP filesystem server (`fs_*` tools);
 * telling the team goes through `post_to_chat`, the one tool that communicates externally.
 *
 * The log files hold text written by outsiders, so reading a file counts as untrusted input: with the
 * file reader (private data, untrusted input) and the chat poster (external) offered to one skill run,
 * the lethal-trifecta gate holds every post for a human's approval. Edits are destructive in the MCP
 * annotations, so they are held for approval too.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { defineFlow, defineTool, type FastPathRule } from '../../src/index.js';

/** The MCP filesystem server's tools the example offers, by their MCP names. */
export const filesystemToolNames = ['list_directory', 'read_text_file', 'edit_file'];

export const inspectFilesFlow = defineFlow({
  name: 'inspect_files',
  intent: 'read',
  description: 'Show a file or list a folder of the workspace.',
  slots: [
    {
      name: 'path',
      type: 'text',
      priority: 'required',
      description: 'File or folder',
      question: 'Which file or folder?',
    },
  ],
  tools: ['fs_list_directory', 'fs_read_text_file'],
  skill:
    'Show {{path}}: list it with fs_list_directory when it is a folder, read it with fs_read_text_file when it is a file.',
});

export const updateConfigFlow = defineFlow({
  name: 'update_config',
  intent: 'transform',
  description: 'Change one setting in a configuration file.',
  slots: [
    {
      name: 'setting',
      type: 'text',
      priority: 'required',
      description: 'Setting',
      question: 'Which setting?',
    },
    {
      name: 'value',
      type: 'text',
      priority: 'required',
      description: 'New value',
      question: 'To which value?',
    },
    {
      name: 'path',
      type: 'text',
      priority: 'required',
      description: 'Configuration file',
      question: 'In which file?',
    },
  ],
  tools: ['fs_read_text_file', 'fs_edit_file'],
  skill:
    'Read {{path}} with fs_read_text_file, then change the line of {{setting}} to {{value}} with fs_edit_file (one edit of that line only).',
});

export const notifyTeamFlow = defineFlow({
  name: 'notify_team',
  intent: 'transform',
  description: 'Tell the team what a file says (for example an incident log).',
  slots: [
    { name: 'path', type: 'text', priority: 'required', description: 'File', question: 'About which file?' },
  ],
  tools: ['fs_read_text_file', 'post_to_chat'],
  skill: 'Read {{path}} with fs_read_text_file and post a two-line summary for the team with post_to_chat.',
});

/** Posts to the team chat; offline, the example's chat is a file of posted messages (`outbox`). */
export function createPostToChatTool(outbox: string) {
  return defineTool({
    name: 'post_to_chat',
    description: 'Post a message to the team chat channel.',
    input: z.object({ text: z.string().min(1).max(2_000) }),
    output: z.object({ posted: z.literal(true) }),
    idempotent: false,
    capability: 'controlled',
    communicatesExternally: true,
    timeoutMs: 5_000,
    execute: ({ text }, context) => {
      appendFileSync(outbox, `${JSON.stringify({ text, idempotencyKey: context.idempotencyKey })}\n`);
      return { posted: true as const };
    },
  });
}

/** These messages are routed without a model call. */
export const operationsRules: FastPathRule[] = [
  { pattern: /^(?:show|list|read|open|inspect) (?<path>[\w./-]+)$/i, flow: 'inspect_files' },
  {
    pattern: /^set (?<setting>[\w.-]+) to (?<value>[\w.-]+) in (?<path>[\w./-]+)$/i,
    flow: 'update_config',
  },
  { pattern: /^(?:tell|notify) the team about (?<path>[\w./-]+)$/i, flow: 'notify_team' },
];
