import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer } from '../server/fixtures/server-fixture.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** The version of Chart.js this project has installed, read from its own manifest. */
function installedVersion(): string {
  const entry = createRequire(import.meta.url).resolve('chart.js');
  const manifest = JSON.parse(readFileSync(new URL('../package.json', `file://${entry}`), 'utf8'));
  return manifest.version as string;
}

describe('the charting library on the web page', () => {
  it('is named by its installed version in the page and served from the package, cached for a year', async () => {
    const started = await startTestServer();
    servers.push(started);
    const version = installedVersion();
    const page = await (await fetch(`${started.url}/`)).text();
    const path = `/ui/vendor/chart.js/${version}/chart.umd.js`;
    // Before the page's own modules, which draw with it.
    expect(page.indexOf(`src="${path}"`)).toBeGreaterThan(0);
    expect(page.indexOf(`src="${path}"`)).toBeLessThan(page.indexOf('src="/ui/app.js"'));

    const library = await fetch(`${started.url}${path}`);
    expect(library.status).toBe(200);
    expect(library.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(library.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await library.text()).toContain(`Chart.js v${version}`);
  });

  it('answers 404 for another version, so a cached page never mixes versions', async () => {
    const started = await startTestServer();
    servers.push(started);
    const other = await fetch(`${started.url}/ui/vendor/chart.js/0.0.1/chart.umd.js`);
    expect(other.status).toBe(404);
    expect(other.headers.get('cache-control') ?? '').not.toContain('immutable');
  });
});
