/**
 * The web page: `/` and its files under `/ui/`. Public (the page asks for a token and sends it with
 * every API call), with a strict Content-Security-Policy. The charting library is read from the installed
 * package and served under its version, so a browser keeps it for a year (docs/decisions/0089).
 */
import type { Hono } from 'hono';
import { readChartLibrary, readUiAsset, uiContentSecurityPolicy } from '../../ui/index.js';
import { problem, problemResponse } from '../problem-details.js';
import type { ServerEnv } from '../server-types.js';

export function mountUi(app: Hono<ServerEnv>): void {
  const serve = (name: string) => {
    const asset = readUiAsset(name);
    if (!asset) return problemResponse(problem(404, 'not_found', `No file ${name}.`));
    return new Response(asset.body, {
      headers: {
        'content-type': asset.contentType,
        'content-security-policy': uiContentSecurityPolicy,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-cache',
      },
    });
  };
  app.get('/', () => serve('index.html'));
  app.get('/ui/:name', (c) => serve(c.req.param('name')));
  app.get('/ui/vendor/chart.js/:version/chart.umd.js', (c) => {
    const library = readChartLibrary();
    if (!library || library.version !== c.req.param('version'))
      return problemResponse(problem(404, 'not_found', 'No such version of the charting library.'));
    return new Response(library.body, {
      headers: {
        'content-type': 'text/javascript; charset=utf-8',
        'x-content-type-options': 'nosniff',
        'cache-control': 'public, max-age=31536000, immutable',
      },
    });
  });
}
