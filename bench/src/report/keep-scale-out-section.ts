/**
 * The "Scale-out" section is written by `npm run bench:scale` (bench/scale), separately; a run of this bench
 * keeps it from the report it replaces, in the appendix (its heading one level down, as the appendix's others).
 */
import { existsSync, readFileSync } from 'node:fs';

export function keepScaleOutSection(path: string): string {
  if (!existsSync(path)) return '';
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('<!-- scale-out:start -->');
  const end = text.indexOf('<!-- scale-out:end -->');
  if (start < 0 || end <= start) return '';
  const section = text.slice(start, end + '<!-- scale-out:end -->'.length).replace(/^## /gm, '### ');
  return `\n${section}\n`;
}
