/**
 * The charting library the page draws chart frames with: Chart.js's self-contained browser file
 * (`dist/chart.umd.js`), read from the installed `chart.js` package wherever Node resolves it — this
 * repository's node_modules, or the node_modules of a project that installed flowstack. The page loads it
 * from its own server under a path that names the version, so a browser may keep it for a year and still
 * gets the new file when flowstack moves to a new version (docs/decisions/0089).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The library's file as the server sends it. */
export interface ChartLibrary {
  /** The installed version, part of the file's path. */
  version: string;
  /** The path the page loads it from. */
  path: string;
  body: string;
}

/** Where the page finds the library: `/ui/vendor/chart.js/<version>/chart.umd.js`. */
export function chartLibraryPath(version: string): string {
  return `/ui/vendor/chart.js/${version}/chart.umd.js`;
}

let loaded: ChartLibrary | null | undefined;

/**
 * The library, read once; undefined when the package cannot be found (a broken install) — the page then
 * shows a chart frame's rows as a table alone.
 */
export function readChartLibrary(): ChartLibrary | undefined {
  if (loaded === undefined) loaded = loadChartLibrary();
  return loaded ?? undefined;
}

function loadChartLibrary(): ChartLibrary | null {
  try {
    // The package exports no path to its browser file, but that file lies beside its CommonJS entry.
    const entry = createRequire(import.meta.url).resolve('chart.js');
    const directory = dirname(entry);
    const manifest = JSON.parse(readFileSync(join(directory, '..', 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    const version = typeof manifest.version === 'string' ? manifest.version : 'unknown';
    return {
      version,
      path: chartLibraryPath(version),
      body: readFileSync(join(directory, 'chart.umd.js'), 'utf8'),
    };
  } catch {
    return null;
  }
}
