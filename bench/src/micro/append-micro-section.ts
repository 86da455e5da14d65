/**
 * The hook of `run-all.ts`: runs the micro-benchmarks after the main scenarios and appends their section
 * to the report's appendix. A failure here costs the section, never the report of the whole run.
 */
import { join } from 'node:path';
import { demoteHeadings } from '../report/write-report.js';
import { runMicro } from './run-micro.js';

export async function appendMicroSection(
  report: string,
  options: { quick: boolean; tmpDir: string; log: (text: string) => void },
): Promise<string> {
  try {
    const micro = await runMicro({
      quick: options.quick,
      log: options.log,
      // A quick run is a smoke test: it leaves docs/benchmarks-micro.md alone.
      ...(options.quick ? { outputPath: join(options.tmpDir, 'benchmarks-micro-quick.md') } : {}),
    });
    options.log(`wrote ${micro.outputPath}`);
    // In the report the section sits under its appendix, one heading level down.
    return `${report.trimEnd()}\n\n${demoteHeadings(micro.section)}`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    options.log(`micro-benchmarks failed: ${message.split('\n')[0]}`);
    return `${report.trimEnd()}\n\n### Pipeline micro-benchmarks\n\nNot measured in this run: ${message.split('\n')[0]}\n`;
  }
}
