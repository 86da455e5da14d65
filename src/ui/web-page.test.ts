import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createTravelDemoModel } from '../../examples/travel/demo-model.js';
import { createTravelExample } from '../../examples/travel/index.js';
import { createGate } from '../server/fixtures/server-fixture.js';
import { createSqliteStore } from '../store/index.js';
import {
  artifacts,
  browserTestsRun,
  say,
  pageToken as token,
  useBrowser,
} from './fixtures/browser-fixture.js';
import { createPlanningTravelAgent } from './fixtures/planning-travel-agent.js';

const { browser, serve, openPage, onCleanup } = useBrowser();

/** The model, whose first flight search (a plan item's skill call) waits for `held`. */
function holdFlightSearch(model: LanguageModelV3, held: Promise<void>): LanguageModelV3 {
  let first = true;
  const pass = async (options: LanguageModelV3CallOptions) => {
    const flowstack = options.providerOptions?.flowstack as { phase?: string; flow?: string } | undefined;
    if (first && flowstack?.phase === 'skill' && flowstack.flow === 'search_flights') {
      first = false;
      await held;
    }
  };
  return {
    ...model,
    doGenerate: async (options) => {
      await pass(options);
      return model.doGenerate(options);
    },
    doStream: async (options) => {
      await pass(options);
      return model.doStream(options);
    },
  };
}

describe.skipIf(!browserTestsRun)('the web page in headless Chromium', () => {
  it('chats with the travel agent: progress while it works, the flow stack, the answer, the event tree', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-ui-'));
    const gate = createGate(createTravelDemoModel());
    const example = createTravelExample({
      model: gate.model,
      store: createSqliteStore({ path: join(dir, 'ui.db') }),
    });
    const url = await serve(example.agent);
    onCleanup(() => gate.release());
    const page = await openPage(url);

    gate.hold();
    await say(page, 'I want to fly to Lisbon');
    await gate.waiting();
    // The page shows that the model is working while the call is held.
    await page.waitForSelector('#status[data-active="true"] >> text=Understanding your message…');
    await page.screenshot({ path: join(artifacts, 'web-page-1-progress.png') });
    gate.release();

    await page.waitForSelector('.message.assistant >> text=On which date would you like to fly');
    await page.waitForSelector('#stack .flow[data-flow="search_flights"] >> text=asks for date');
    await say(page, '2026-12-05');
    await page.waitForSelector('.message.assistant >> text=Found 2 flights to Lisbon on 2026-12-05');
    await page.waitForSelector('#stack >> text=No flow is running.');
    const tree = await page.textContent('#event-tree');
    expect(tree).toContain('Search flights');
    expect(tree).toContain('Called find flights');
    expect(tree).toContain('Find flights succeeded');
    expect(tree).not.toContain('undefined');
    expect(await page.locator('#status').getAttribute('data-active')).toBe('false');
    await page.screenshot({ path: join(artifacts, 'web-page-2-answer.png'), fullPage: true });

    // The thread is durable: a reload shows it again from the API.
    await page.reload();
    await page.waitForSelector('.message.assistant >> text=Found 2 flights to Lisbon');
    expect(await page.locator('.message').count()).toBe(4);
  });

  it('shows the plan and its progress, asks for approval, edits the arguments, and shows the final answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-ui-'));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The real agent; its first flight search waits until the page has been looked at.
    const { agent, bookings } = createPlanningTravelAgent({
      store: createSqliteStore({ path: join(dir, 'plan.db') }),
      ledgerDir: dir,
      wrapModel: (model) => holdFlightSearch(model, held),
    });
    onCleanup(() => release());
    const url = await serve(agent);
    const page = await openPage(url);

    await say(page, 'Plan a trip to Lisbon and book the cheapest flight');
    await page.waitForSelector('#plan-section:not([hidden])');
    const todos = page.locator('#plan .todo');
    await page.waitForSelector('#plan .todo[data-status="in_progress"] >> text=Find flights to Lisbon');
    expect(await todos.allTextContents()).toEqual(['▶Find flights to Lisbon', '○Book the cheapest flight']);
    await page.waitForSelector('#stack .flow[data-flow="search_flights"]');
    await page.screenshot({ path: join(artifacts, 'web-page-3-plan.png'), fullPage: true });
    release();

    await page.waitForSelector('#approval[open]');
    expect(await page.textContent('#approval-title')).toBe('Approve: Book a flight?');
    expect(await page.textContent('#approval-prompt')).toBe(
      'The agent wants to do this: Book a flight. Check the details, then approve or reject.',
    );
    // Every argument is shown in words (the tool's titles for them), not only as JSON.
    expect(await page.textContent('#approval-details')).toBe('FlightTP1351PassengerAda Lovelace');
    await page.waitForSelector('#plan .todo[data-status="completed"] >> text=Find flights to Lisbon');
    expect(JSON.parse(await page.inputValue('#approval-arguments'))).toEqual({
      flight_id: 'TP1351',
      passenger: 'Ada Lovelace',
    });
    expect(bookings).toEqual([]);
    // The waiting step's mark is one the default fonts have (not the pause emoji, drawn as a box).
    await page.waitForSelector('#plan .todo[data-status="waiting"]');
    expect(await page.textContent('#plan .todo[data-status="waiting"]')).toBe('‖Book the cheapest flight');
    await page.screenshot({ path: join(artifacts, 'web-page-4-approval.png'), fullPage: true });
    await page.fill(
      '#approval-arguments',
      JSON.stringify({ flight_id: 'TP1351', passenger: 'Grace Hopper' }),
    );
    await page.click('#approval button[value="edit"]');

    await page.waitForSelector('.message.assistant >> text=Booked TP1351 for Grace Hopper');
    await page.waitForSelector('#plan .todo[data-status="completed"] >> text=Book the cheapest flight');
    expect(await page.locator('#approval').getAttribute('open')).toBeNull();
    // The plan is over: no "Thinking…" is left spinning.
    await page.waitForSelector('body[data-busy="false"]');
    expect(await page.locator('#status').getAttribute('data-active')).toBe('false');
    // The approved call ran once, with the edited arguments.
    expect(bookings.map((b) => [b.flight_id, b.passenger])).toEqual([['TP1351', 'Grace Hopper']]);
    const tree = await page.textContent('#event-tree');
    expect(tree).toContain('Book the cheapest flight');
    expect(tree).toContain('Waits for your approval of book flight');
    expect(tree).toContain('Went on after your answer (edit)');
    await page.screenshot({ path: join(artifacts, 'web-page-5-done.png'), fullPage: true });
  });

  it('rolls back the booking ledger from the page: every byte as it was before the call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-ui-'));
    const ledger = join(dir, 'bookings.json');
    writeFileSync(ledger, '[]\n');
    const { agent, bookings } = createPlanningTravelAgent({
      store: createSqliteStore({ path: join(dir, 'plan.db') }),
      ledgerDir: dir,
    });
    const url = await serve(agent);
    const page = await openPage(url);
    await say(page, 'Plan a trip to Lisbon and book the cheapest flight');
    await page.waitForSelector('#approval[open]');
    await page.click('#approval button[value="approve"]');
    await page.waitForSelector('.message.assistant >> text=Booked TP1351 for Ada Lovelace');
    expect(bookings).toHaveLength(1);
    expect(readFileSync(ledger, 'utf8')).toContain('Ada Lovelace');

    await page.waitForSelector('#file-snapshots >> text=book_flight: bookings.json (committed)');
    // Someone edits the ledger after the booking: the page says so and asks before overwriting it.
    writeFileSync(ledger, `${readFileSync(ledger, 'utf8')}\n// checked by hand\n`);
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page.click('#file-snapshots button.rollback');
    await page.waitForSelector('#rollback-result >> text=Rolled back: restored bookings.json.');
    expect(asked).toEqual([
      expect.stringContaining('Restore bookings.json as they were before book_flight?'),
      expect.stringMatching(/'bookings\.json' changed after the call[\s\S]*Overwrite those changes\?/),
    ]);
    await page.waitForSelector('#file-snapshots button.rollback[disabled]');
    expect(await page.textContent('#file-snapshots')).toContain('(rolled-back)');
    expect(readFileSync(ledger, 'utf8')).toBe('[]\n');
    await page.screenshot({ path: join(artifacts, 'web-page-6-rollback.png'), fullPage: true });
  });

  it('answers the question a failed booking asks about its files: the ledger is rolled back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-ui-'));
    const ledger = join(dir, 'bookings.json');
    writeFileSync(ledger, '[]\n');
    const { agent } = createPlanningTravelAgent({
      store: createSqliteStore({ path: join(dir, 'plan.db') }),
      ledgerDir: dir,
      failAfterLedger: true,
    });
    const page = await openPage(await serve(agent));
    await say(page, 'Plan a trip to Lisbon and book the cheapest flight');
    await page.waitForSelector('#approval[open][data-kind="approval"]');
    await page.click('#approval button[value="approve"]');
    // The booking wrote the ledger, then failed: the page asks what to do with the file.
    await page.waitForSelector('#approval[open][data-kind="rollback"]');
    expect(readFileSync(ledger, 'utf8')).toContain('unpaid');
    const choices = await page.$$eval('#approval-actions button', (buttons) =>
      buttons.map((b) => (b as HTMLButtonElement).value),
    );
    expect(choices).toEqual(['rollback', 'rollback-force', 'keep', 'continue']);
    await page.screenshot({ path: join(artifacts, 'web-page-7-rollback-question.png'), fullPage: true });
    await page.click('#approval button[value="rollback"]');
    await page.waitForSelector('#file-snapshots >> text=book_flight: bookings.json (rolled-back)');
    expect(readFileSync(ledger, 'utf8')).toBe('[]\n');
    expect(await page.textContent('#event-tree')).toContain('Went on after your answer (rollback)');
  });

  it('asks for a token when the page has none, and the API refuses a wrong one', async () => {
    const { agent } = createTravelExample({
      store: createSqliteStore({ path: join(mkdtempSync(join(tmpdir(), 'ui-')), 'a.db') }),
      env: {},
    });
    const url = await serve(agent);
    const page = await browser().newPage();
    onCleanup(() => page.close());
    await page.goto(url);
    await page.waitForSelector('#login[open]');
    await page.fill('#login-token', 'wrong-token-0123456789abcdef');
    await page.click('#login button[type="submit"]');
    // The API answers 401, and the page asks again.
    await page.waitForSelector('#login[open]');
    await page.fill('#login-token', token);
    await page.click('#login button[type="submit"]');
    await page.waitForSelector('#login', { state: 'hidden' });
    await say(page, 'flights to Paris on 2026-12-05');
    await page.waitForSelector('.message.assistant >> text=Found 2 flights to Paris');
  });
});
