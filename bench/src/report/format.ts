/** Number formatting and small table helpers for the report. */
import { max, median, min } from '../shared/stats.js';

export function us(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return value >= 100 ? `${Math.round(value).toLocaleString('en-US')} µs` : `${value.toFixed(1)} µs`;
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return value >= 100
    ? `${Math.round(value).toLocaleString('en-US')} ms`
    : `${value.toFixed(value >= 10 ? 1 : 2)} ms`;
}

export function bytes(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (Math.abs(value) >= 2 ** 20) return `${(value / 2 ** 20).toFixed(1)} MiB`;
  return `${(value / 1024).toFixed(1)} KiB`;
}

/** Decimal megabytes (10⁶ bytes), as install sizes are usually given. */
export function megabytes(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return `${(value / 1e6).toFixed(1)} MB`;
}

export function ratio(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return `${value >= 10 ? value.toFixed(0) : value.toFixed(2)}×`;
}

/** `ratio`, with a third decimal when two would round a figure on the wrong side of `bound` onto it. */
export function ratioAgainst(value: number, bound: number): string {
  if (Number.isFinite(value) && value !== bound && value.toFixed(2) === bound.toFixed(2))
    return `${value.toFixed(3)}×`;
  return ratio(value);
}

export function count(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';
}

/** `median (min–max)` of per-run values formatted by `format`. */
export function spread(values: readonly number[], format: (v: number) => string): string {
  if (values.length === 0) return '—';
  if (values.length === 1) return format(values[0] as number);
  return `${format(median(values))} (${format(min(values))} – ${format(max(values))})`;
}

export function table(header: string[], rows: string[][]): string {
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}
