/**
 * A turn as the terminal shows it, or as one JSON line with --json.
 */
import type { TurnResult } from '../../agent/index.js';
import type { CliIo } from '../cli-io.js';

export function printTurn(io: CliIo, turn: TurnResult, options: { json: boolean; echo?: string }): void {
  if (options.json) {
    io.out(
      JSON.stringify({
        threadId: turn.threadId,
        turnId: turn.turnId,
        status: turn.status,
        reply: turn.reply,
        frames: turn.frames,
        stack: turn.stack,
        ...(turn.pending ? { pending: turn.pending } : {}),
      }),
    );
    return;
  }
  if (options.echo !== undefined) io.out(`\nyou> ${options.echo}`);
  io.out(`agent> ${turn.reply.replaceAll('\n', '\n       ')}`);
  for (const frame of turn.frames) {
    if ((frame.displayType === 'table' || frame.displayType === 'chart') && Array.isArray(frame.data))
      io.out(formatTable(frame.data));
  }
  const stack = turn.stack.map((f) => `${f.name}(${f.status})`).join(' > ') || 'empty';
  io.out(`       [${turn.status}; stack: ${stack}]`);
}

/** Rows of objects as an aligned text table. */
export function formatTable(rows: readonly unknown[]): string {
  const records = rows.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null);
  const columns = [...new Set(records.flatMap((r) => Object.keys(r)))];
  if (columns.length === 0) return '';
  const cell = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  const widths = columns.map((c) => Math.max(c.length, ...records.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    `  ${values.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd();
  return [
    line(columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...records.map((r) => line(columns.map((c) => cell(r[c])))),
  ].join('\n');
}
