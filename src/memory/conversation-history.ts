/**
 * Conversation history (seed 000 context coordinator): a recent window of turns, and `compileHistory`,
 * which writes that window as a transcript for prompts that need the conversation as text.
 */

export interface HistoryMessage {
  role: 'user' | 'assistant';
  text: string;
}

/** Default turns of history a skill reads (seed 000: three turns back). */
export const defaultHistoryTurns = 3;

/**
 * The messages of the last `turns` turns, oldest first. A turn starts with a user message, so the
 * window never begins with a reply whose question was cut off.
 */
export function recentWindow<M extends HistoryMessage>(messages: readonly M[], turns: number): M[] {
  if (turns <= 0) return [];
  let seen = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role !== 'user') continue;
    seen += 1;
    if (seen === turns) return messages.slice(index);
  }
  return messages.slice(messages.findIndex((m) => m.role === 'user') >>> 0);
}

/**
 * The last `turns` turns as a transcript (`User: …` / `Agent: …`), at most `maxChars` characters; when
 * it is longer, the oldest lines are dropped first, so the latest message is always there.
 */
export function compileHistory(
  messages: readonly HistoryMessage[],
  options: { turns?: number; maxChars?: number; agentName?: string } = {},
): string {
  const window = recentWindow(messages, options.turns ?? defaultHistoryTurns);
  const agent = options.agentName ?? 'Agent';
  const lines = window.map(
    (m) => `${m.role === 'user' ? 'User' : agent}: ${m.text.replace(/\s+/g, ' ').trim()}`,
  );
  const max = options.maxChars ?? 4_000;
  const kept: string[] = [];
  let size = 0;
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] as string;
    if (size + line.length + 1 > max) {
      if (kept.length === 0) kept.push(`…${line.slice(line.length - max + 1)}`);
      break;
    }
    kept.push(line);
    size += line.length + 1;
  }
  return kept.reverse().join('\n');
}
