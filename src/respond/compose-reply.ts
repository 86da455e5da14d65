/**
 * Turns what a flow produced into the reply the user reads (seed 000 RES): a question first when one is
 * pending, then the flows' results.
 */

/** A structured result for a UI to render next to the text (seed 000 display frame). */
export interface DisplayFrame {
  flow: string;
  displayType: 'text' | 'table' | 'json';
  data: unknown;
}

export interface ReplyPart {
  text: string;
  frame?: DisplayFrame;
}

/** The text of a skill's success data: its `text`, `summary` or `message` field, else a short JSON. */
export function describeResult(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    for (const key of ['text', 'summary', 'message', 'answer']) {
      if (typeof record[key] === 'string') return record[key] as string;
    }
  }
  const json = JSON.stringify(data);
  return json === undefined ? 'Done.' : json.length > 500 ? `${json.slice(0, 500)}…` : json;
}

/** The frame for a result: a table for an array of rows, JSON for other objects, nothing for plain text. */
export function frameFor(flow: string, data: unknown): DisplayFrame | undefined {
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    const rows = Array.isArray(data) ? data : Array.isArray(record.rows) ? record.rows : undefined;
    if (rows) return { flow, displayType: 'table', data: rows.slice(0, 512) };
    const keys = Object.keys(record).filter((k) => !['text', 'summary', 'message', 'answer'].includes(k));
    if (keys.length > 0) return { flow, displayType: 'json', data };
  }
  return undefined;
}

export function composeReply(
  parts: readonly ReplyPart[],
  question?: string,
): { text: string; frames: DisplayFrame[] } {
  const texts = parts.map((p) => p.text).filter((t) => t.trim() !== '');
  if (question) texts.push(question);
  return { text: texts.join('\n\n'), frames: parts.flatMap((p) => (p.frame ? [p.frame] : [])) };
}
