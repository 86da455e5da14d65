/**
 * The operations example's offline model: routes with a few patterns and runs each skill as a fixed
 * sequence of tool calls computed from the slot values and the tool results in the prompt.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3Message } from '@ai-sdk/provider';
import { createScriptedModel, type ScriptedModel, type ScriptStepOutput } from '../../src/test/index.js';

export function createOperationsDemoModel(): ScriptedModel {
  return createScriptedModel({
    modelId: 'operations-demo',
    // It serves `flowstack serve` for as long as the process runs: a record of the latest calls only.
    keepCalls: 100,
    steps: [
      {
        label: 'route',
        match: { phase: 'predict' },
        repeat: true,
        respond: () => ({ json: { flow: 'none', slots: {} } }),
      },
      { label: 'skill', match: { phase: 'skill' }, repeat: true, respond: runSkill },
    ],
  });
}

function runSkill(options: LanguageModelV3CallOptions): ScriptStepOutput {
  const flow = (options.providerOptions?.flowstack as { flow?: string } | undefined)?.flow;
  const slots = readSlots(options.prompt);
  const results = toolResults(options.prompt);
  const last = results.at(-1);
  if (last?.error) return finish({ outcome: 'failure', message: last.text });
  if (flow === 'inspect_files') {
    if (!last) {
      const folder = !/\.[a-z]+$/i.test(slots.path ?? '');
      return call(folder ? 'fs_list_directory' : 'fs_read_text_file', { path: slots.path });
    }
    return finish({ outcome: 'success', data: { text: `${slots.path}:\n${last.text.trim()}` } });
  }
  if (flow === 'update_config') {
    if (!last) return call('fs_read_text_file', { path: slots.path });
    if (results.length === 1) {
      const line = last.text.split('\n').find((l) => l.startsWith(`${slots.setting}:`));
      if (!line)
        return finish({ outcome: 'failure', message: `${slots.path} has no setting ${slots.setting}.` });
      return call('fs_edit_file', {
        path: slots.path,
        edits: [{ oldText: line, newText: `${slots.setting}: ${slots.value}` }],
      });
    }
    return finish({
      outcome: 'success',
      data: { text: `Set ${slots.setting} to ${slots.value} in ${slots.path}.` },
    });
  }
  if (flow === 'notify_team') {
    if (!last) return call('fs_read_text_file', { path: slots.path });
    if (results.length === 1) {
      const errors = last.text.split('\n').filter((l) => / ERROR /.test(l));
      return call('post_to_chat', {
        text: `From ${slots.path}: ${errors.length} error(s). ${errors[0] ?? ''}`.trim(),
      });
    }
    return finish({ outcome: 'success', data: { text: `Told the team about ${slots.path}.` } });
  }
  return { text: 'I can show files, change a setting, and tell the team about a file.' };
}

const call = (toolName: string, input: unknown): ScriptStepOutput => ({ toolCalls: [{ toolName, input }] });
const finish = (input: Record<string, unknown>): ScriptStepOutput => call('finish_skill', input);

/** The text of every tool result in the prompt, oldest first (the skill's own calls). */
function toolResults(prompt: LanguageModelV3Message[]): Array<{ text: string; error: boolean }> {
  const results: Array<{ text: string; error: boolean }> = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result' || part.toolName === 'finish_skill') continue;
      const output = part.output;
      const text =
        output.type === 'text' || output.type === 'error-text'
          ? output.value
          : 'value' in output
            ? JSON.stringify(output.value)
            : output.type;
      results.push({
        text: contentOf(text),
        error: output.type === 'error-text' || output.type === 'error-json',
      });
    }
  }
  return results;
}

/** The filesystem server answers `{ "content": "…" }`; the text inside is what matters. */
function contentOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { content?: unknown };
    return typeof parsed.content === 'string' ? parsed.content : text;
  } catch {
    return text;
  }
}

/** Slot values as the skill prompt lists them (`- name: value` under "Slot values:"). */
function readSlots(prompt: LanguageModelV3Message[]): Record<string, string> {
  const system = prompt.find((m) => m.role === 'system');
  const block = system?.role === 'system' ? (system.content.split('Slot values:\n')[1] ?? '') : '';
  const slots: Record<string, string> = {};
  for (const line of block.split('\n')) {
    const match = /^- (\w+): (.*)$/.exec(line);
    if (!match) break;
    slots[match[1] as string] = match[2] as string;
  }
  return slots;
}
