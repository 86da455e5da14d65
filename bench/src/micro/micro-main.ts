/**
 * `npm run micro --prefix bench`: runs the micro-benchmarks alone, writes `docs/benchmarks-micro.md`
 * and prints the Markdown section. `--quick`: one run per variant, into `bench/.tmp/` instead.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMicro } from './run-micro.js';

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const tmpDir = fileURLToPath(new URL('../../.tmp', import.meta.url));
  if (quick) mkdirSync(tmpDir, { recursive: true });
  const result = await runMicro({
    quick,
    ...(quick ? { outputPath: join(tmpDir, 'benchmarks-micro-quick.md') } : {}),
    log: (text) => process.stderr.write(`${text}\n`),
  });
  process.stdout.write(result.section);
  process.stderr.write(`wrote ${result.outputPath}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
