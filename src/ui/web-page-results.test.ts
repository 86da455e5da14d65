// What a newcomer sees on the web page (issue 34): the turn's results (tables, charts, further pages),
// a status that tells the truth (no duplicate bubble, no stale spinner), and a page that fits a phone.
// The streaming reply, Stop and reconnecting are in web-page-streaming.test.ts. Each state is photographed into test-artifacts/ for a reviewer.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDataAnalysisExample } from '../../examples/data-analysis/index.js';
import { createTravelExample } from '../../examples/travel/index.js';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore, createSqliteStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import {
  artifacts,
  browserTestsRun,
  overflowsSideways,
  say,
  useBrowser,
} from './fixtures/browser-fixture.js';

const { serve, openPage } = useBrowser();
const phone = { width: 390, height: 844 };

/** A tool a flow names so that it is valid; these scripts never call it. */
const lookUp = defineTool({
  name: 'look_up',
  description: 'Looks something up.',
  input: z.object({}),
  idempotent: true,
  execute: () => ({}),
});

const shoot = (page: Page, name: string) =>
  page.screenshot({ path: join(artifacts, `web-page-results-${name}.png`), fullPage: true });

function travelAgent() {
  const dir = mkdtempSync(join(tmpdir(), 'flowstack-ui-'));
  return createTravelExample({ store: createSqliteStore({ path: join(dir, 'ui.db') }), env: {} }).agent;
}

/** An agent whose one flow lists 1,300 rows: a frame of 512 and the rest through the frame route. */
function manyRowsAgent() {
  const rows = Array.from({ length: 1300 }, (_, n) => ({ n, name: `row ${n}` }));
  return createAgent({
    model: createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'list_all', slots: {} }, repeat: true },
        {
          match: { phase: 'skill' },
          repeat: true,
          toolCalls: [
            {
              toolName: 'finish_skill',
              input: { outcome: 'success', data: { rows, text: 'All the rows.' } },
            },
          ],
        },
      ],
    }),
    flows: [
      defineFlow({
        name: 'list_all',
        intent: 'read',
        description: 'List every row.',
        tools: ['look_up'],
        skill: 'List every row.',
      }),
    ],
    tools: [lookUp],
    store: createMemoryStore(),
  });
}

/** An agent whose `share` flow answers with a chart of the kind the message names ("a pie …", "a line …"). */
function chartKindsAgent() {
  const rows = [
    { label: 'north', value: 40 },
    { label: 'south', value: 25 },
    { label: 'east', value: 35 },
  ];
  return createAgent({
    model: createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'share', slots: {} }, repeat: true },
        {
          match: { phase: 'skill' },
          repeat: true,
          respond: (options) => {
            const asked = JSON.stringify(options.prompt.findLast((m) => m.role === 'user') ?? {});
            const chartType = asked.includes('pie') ? 'pie' : 'line';
            return {
              toolCalls: [
                {
                  toolName: 'finish_skill',
                  input: { outcome: 'success', data: { rows, chartType, text: `A ${chartType} chart.` } },
                },
              ],
            };
          },
        },
      ],
    }),
    flows: [
      defineFlow({
        name: 'share',
        intent: 'read',
        description: 'Chart the shares.',
        tools: ['look_up'],
        skill: 'Chart the shares.',
        display: { type: 'chart' },
      }),
    ],
    tools: [lookUp],
    store: createMemoryStore(),
  });
}

describe.skipIf(!browserTestsRun)('the web page shows results and tells the truth about its status', () => {
  it('shows the flight table under the reply, the first message once, no stale spinner, and the thread by its title', async () => {
    const page = await openPage(await serve(travelAgent()));
    await say(page, 'flights to Lisbon on 2026-12-05');
    await page.waitForSelector('.message.assistant >> text=Found 2 flights to Lisbon');
    const table = page.locator('.message.assistant .frame table');
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBe(2);
    expect(await table.textContent()).toContain('TP1351');
    // The first message of a new chat: one bubble, not a faded copy beside it, and nothing still "sending".
    await page.waitForSelector('body[data-busy="false"]');
    expect(await page.locator('.message').count()).toBe(2);
    expect(await page.locator('.message.pending').count()).toBe(0);
    expect(await page.locator('#status').getAttribute('data-active')).toBe('false');
    expect(await page.isVisible('#send')).toBe(true);
    expect(await page.isVisible('#stop')).toBe(false);
    // The thread is listed by what was asked in it.
    await page.waitForSelector('#thread-list button >> text=flights to Lisbon on 2026-12-05');
    await shoot(page, '1-flight-table');

    // A reload shows the table again, from the thread's stored frames.
    await page.reload();
    await page.waitForSelector('.message.assistant .frame table >> text=TP1351');
  });

  it("shows an approval in the tool's words with every argument, and a no without a reason is answered as a decision", async () => {
    const page = await openPage(await serve(travelAgent()));
    await say(page, 'book TP1351 for Ada Lovelace');
    await page.waitForSelector('#approval[open]');
    expect(await page.textContent('#approval-title')).toBe('Approve: Book a flight?');
    expect(await page.textContent('#approval-details')).toBe('FlightTP1351PassengerAda Lovelace');
    await shoot(page, '0-approval');
    await page.click('#approval button[value="reject"]');
    await page.waitForSelector('.message.assistant >> text=OK, I did not go ahead with "Book a flight".');
    const conversation = await page.textContent('#messages');
    expect(conversation).not.toMatch(/auth_error|could not finish|Do not try|need approval in this run/);
    expect(await page.locator('#approval').getAttribute('open')).toBeNull();
  });

  it('pages a large table through the frame route, and sorts it by a column', async () => {
    const page = await openPage(await serve(manyRowsAgent()));
    await say(page, 'list all rows');
    const rows = page.locator('.frame tbody tr');
    await page.waitForSelector('.frame .more-rows');
    expect(await rows.count()).toBe(512);
    expect(await page.textContent('.frame .more-rows')).toBe('Show more rows (512 of 1300)');
    await page.click('.frame .more-rows');
    await page.waitForSelector('.frame .more-rows >> text=Show more rows (1024 of 1300)');
    await page.click('.frame .more-rows');
    await page.waitForSelector('.frame .frame-count >> text=1300 rows');
    expect(await rows.count()).toBe(1300);
    expect(await page.locator('.frame .more-rows').count()).toBe(0);
    // Sorting by n, twice: descending.
    await page.click('.frame th button >> text=n');
    await page.click('.frame th button >> text=n');
    expect(await rows.first().locator('td').first().textContent()).toBe('1299');
    await shoot(page, '2-paged-table');
  });

  it('draws the data-analysis chart with the charting library: a bar for each region, the numbers in a table', async () => {
    const { agent } = createDataAnalysisExample({
      store: createMemoryStore(),
      env: {},
      datasetPath: ':memory:',
    });
    const page = await openPage(await serve(agent));
    await say(page, 'chart revenue by region');
    const canvas = page.locator('.frame[data-display="chart"] canvas.chart');
    await canvas.waitFor();
    const tableRows = page.locator('.frame[data-display="chart"] table tbody tr');
    await tableRows.first().waitFor();
    const drawn = await canvas.evaluate((node: HTMLCanvasElement) => {
      type Bar = { x: number; y: number; base: number };
      const library = (globalThis as unknown as { Chart: { getChart(c: HTMLCanvasElement): unknown } }).Chart;
      const chart = library.getChart(node) as {
        config: { type: string };
        data: { labels: string[]; datasets: Array<{ data: number[] }> };
        currentDevicePixelRatio: number;
        getDatasetMeta(index: number): { data: Bar[] };
      };
      const context = node.getContext('2d');
      if (!context) throw new Error('The chart canvas has no 2d context.');
      const scale = chart.currentDevicePixelRatio;
      // The colour in the middle of each bar, read back from what the library drew.
      const bars = chart.getDatasetMeta(0).data.map((bar) => {
        const pixel = context.getImageData(
          Math.round(((bar.x + bar.base) / 2) * scale),
          Math.round(bar.y * scale),
          1,
          1,
        ).data;
        return { length: Math.abs(bar.x - bar.base), rgba: [...pixel] };
      });
      return {
        type: chart.config.type,
        labels: chart.data.labels,
        values: chart.data.datasets[0]?.data ?? [],
        bars,
        accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
        description: node.getAttribute('aria-label'),
      };
    });
    expect(drawn.type).toBe('bar');
    expect(drawn.bars.length).toBeGreaterThanOrEqual(3);
    // Each bar was painted, in the page's accent colour, at a length in proportion to its value.
    const accent = [1, 3, 5].map((i) => Number.parseInt(drawn.accent.slice(i, i + 2), 16));
    const largest = Math.max(...drawn.values);
    for (const [index, bar] of drawn.bars.entries()) {
      expect(bar.length).toBeGreaterThan(0);
      expect(bar.length / drawn.bars.reduce((m, b) => Math.max(m, b.length), 0)).toBeCloseTo(
        (drawn.values[index] ?? 0) / largest,
        2,
      );
      expect(bar.rgba).toEqual([...accent, 255]);
    }
    // The numbers behind the chart are in a table too, and in words on the canvas.
    expect(await tableRows.count()).toBe(drawn.bars.length);
    const cells = await tableRows.evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
    );
    for (const [index, label] of drawn.labels.entries()) {
      expect(cells[index]).toContain(label);
      expect(drawn.description).toContain(`${label} ${drawn.values[index]}`);
    }
    await shoot(page, '3-chart');
  });

  it('draws a pie and a line chart too, each point where the library says it is', async () => {
    const page = await openPage(await serve(chartKindsAgent()));
    const drawnKinds: string[] = [];
    for (const kind of ['pie', 'line']) {
      await say(page, `a ${kind} chart of the shares`);
      const canvas = page.locator(`.frame[data-display="chart"] .chart-box[data-chart="${kind}"] canvas`);
      await canvas.waitFor();
      const drawn = await canvas.evaluate((node: HTMLCanvasElement) => {
        type Mark = { tooltipPosition(): { x: number; y: number } };
        const library = (globalThis as unknown as { Chart: { getChart(c: HTMLCanvasElement): unknown } })
          .Chart;
        const chart = library.getChart(node) as {
          config: { type: string };
          currentDevicePixelRatio: number;
          getDatasetMeta(index: number): { data: Mark[] };
        };
        const context = node.getContext('2d');
        if (!context) throw new Error('The chart canvas has no 2d context.');
        const scale = chart.currentDevicePixelRatio;
        // How opaque the canvas is where each slice or point is drawn.
        const alphas = chart.getDatasetMeta(0).data.map((mark) => {
          const { x, y } = mark.tooltipPosition();
          return context.getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data[3];
        });
        return { type: chart.config.type, alphas };
      });
      drawnKinds.push(drawn.type);
      expect(drawn.alphas).toEqual([255, 255, 255]);
    }
    expect(drawnKinds).toEqual(['pie', 'line']);
    await shoot(page, '3-pie-and-line');
  });

  it('fits a 390 px phone: no sideways scroll, Send on screen, the table and chart inside the page', async () => {
    const page = await openPage(await serve(travelAgent()), phone);
    expect(await overflowsSideways(page)).toBe(false);
    await say(page, 'flights to Lisbon on 2026-12-05');
    await page.waitForSelector('.message.assistant .frame table >> text=TP1351');
    await page.waitForSelector('body[data-busy="false"]');
    expect(await overflowsSideways(page)).toBe(false);
    const send = await page.locator('#send').boundingBox();
    expect(send).not.toBeNull();
    expect((send?.x ?? 0) + (send?.width ?? 0)).toBeLessThanOrEqual(phone.width);
    await shoot(page, '6-phone');

    const { agent } = createDataAnalysisExample({
      store: createMemoryStore(),
      env: {},
      datasetPath: ':memory:',
    });
    const charts = await openPage(await serve(agent), phone);
    await say(charts, 'chart revenue by region');
    await charts.waitForSelector('.frame[data-display="chart"] canvas.chart');
    expect(await overflowsSideways(charts)).toBe(false);
    await shoot(charts, '7-phone-chart');
  });
});
