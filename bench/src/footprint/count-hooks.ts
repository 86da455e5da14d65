/**
 * Module hooks registered by `import-child.ts --count`: every file an ES import loads is appended to the
 * file named by `FOOTPRINT_LOADED_FILE`, so that the child can count the module files an import pulls in.
 */
import { appendFileSync } from 'node:fs';

interface LoadContext {
  format?: string | null;
}
type NextLoad = (url: string, context: LoadContext) => Promise<unknown>;

export async function load(url: string, context: LoadContext, nextLoad: NextLoad): Promise<unknown> {
  if (url.startsWith('file:')) appendFileSync(process.env.FOOTPRINT_LOADED_FILE ?? '', `${url}\n`);
  return nextLoad(url, context);
}
