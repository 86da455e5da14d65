/**
 * The web page's files (plain HTML, CSS and ES modules; no build step), read once from `assets/`
 * beside this module — in the source tree, and in `dist/` where the build copies them. The page names
 * the charting library by its installed version (`chart-library.ts`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chartLibraryPath, readChartLibrary } from './chart-library.js';

export interface UiAsset {
  body: string;
  contentType: string;
}

const types: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** The files the page is made of; anything else is not served. */
export const uiAssetNames = [
  'index.html',
  'styles.css',
  'app.js',
  'api.js',
  'render.js',
  'frames.js',
  'chart-view.js',
  'event-tree.js',
  'plan-state.js',
  'suspension-form.js',
];

/** The page's Content-Security-Policy: its own files only, no inline script or style. */
export const uiContentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

let cache: Map<string, UiAsset> | undefined;

/** An asset by file name, or undefined for a name that is not part of the page. */
export function readUiAsset(name: string): UiAsset | undefined {
  cache ??= loadAssets();
  return cache.get(name);
}

function loadAssets(): Map<string, UiAsset> {
  const directory = fileURLToPath(new URL('./assets/', import.meta.url));
  return new Map(
    uiAssetNames.map((name) => [
      name,
      {
        body: fillIn(name, readFileSync(`${directory}${name}`, 'utf8')),
        contentType: types[name.split('.').pop() ?? ''] ?? 'text/plain',
      },
    ]),
  );
}

/**
 * The page's script tag for the charting library names the installed version. Without the library (a
 * broken install) the tag is left as it is: it loads nothing, and chart frames show their rows alone.
 */
function fillIn(name: string, body: string): string {
  const library = readChartLibrary();
  if (name !== 'index.html' || !library) return body;
  return body.replace(chartLibraryPath('VERSION'), library.path);
}
