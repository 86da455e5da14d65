// The reply on the web page as it is written (issue 34): it streams in, from the first piece on even in
// a new chat, Stop ends a slow tool, and a dropped connection is resumed without losing or repeating an
// event. Each state is photographed into test-artifacts/ for a reviewer.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTravelExample } from '../../examples/travel/index.js';
import { createServer } from '../server/index.js';
import { createSqliteStore } from '../store/index.js';
import { artifacts, browserTestsRun, pageToken, say, useBrowser } from './fixtures/browser-fixture.js';
import { createSlowAgent } from './fixtures/slow-agent.js';

const { serve, openPage, onCleanup } = useBrowser();

const shoot = (page: Page, name: string) =>
  page.screenshot({ path: join(artifacts, `web-page-streaming-${name}.png`), fullPage: true });

describe.skipIf(!browserTestsRun)('the web page streams the reply and follows the thread', () => {
  it('streams the reply in as it is written, and Stop ends a slow tool', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    onCleanup(() => release());
    const page = await openPage(await serve(createSlowAgent(held)));
    // A reply in a thread the page already follows streams in too (the first message of a new chat has
    // its own test below).
    await say(page, 'tell me something');
    await page.waitForSelector('.message.assistant >> text=arrive on the page.');
    await say(page, 'stream me something');
    // The first piece of the reply is on the page while the model still writes the rest.
    await page.waitForSelector('.message.live p >> text=Here is what');
    expect(await page.textContent('.message.live p')).not.toContain('arrive on the page.');
    await shoot(page, '1-streaming');
    release();
    await page.waitForSelector('.message.assistant:not(.live):nth-child(4) >> text=arrive on the page.');
    expect(await page.locator('.message.live').count()).toBe(0);
    expect(await page.locator('.message').count()).toBe(4);
    // The reply is said once: no text frame repeats it under the bubble.
    expect(await page.locator('.message .frame').count()).toBe(0);

    await say(page, 'do the slow thing');
    await page.waitForSelector('#status >> text=Running wait for stop…');
    expect(await page.isVisible('#stop')).toBe(true);
    await shoot(page, '2-stop-visible');
    const stoppedAt = Date.now();
    await page.click('#stop');
    await page.waitForSelector('body[data-busy="false"]');
    // The tool stopped when the turn was cancelled, not at some timeout.
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    await page.waitForSelector('#send:visible');
    expect(await page.locator('#status').getAttribute('data-active')).toBe('false');
    expect(await page.textContent('#status')).not.toContain('Running');
  });

  it('streams the reply to a message sent before the page follows the new chat', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let openEvents: () => void = () => undefined;
    const eventsHeld = new Promise<void>((resolve) => {
      openEvents = resolve;
    });
    onCleanup(() => {
      openEvents();
      release();
    });
    const page = await openPage(await serve(createSlowAgent(held)));
    // A new chat's first reply is read from the answer to its message; then the page follows the thread's
    // events. The next message is sent before that stream is open, as a quick typist does.
    await page.route('**/v1/threads/*/events', async (route) => {
      await eventsHeld;
      await route.continue();
    });
    await say(page, 'tell me something');
    await page.waitForSelector('.message.assistant >> text=arrive on the page.');
    await say(page, 'stream me something');
    await page.waitForSelector('.message.user >> text=stream me something');
    openEvents();
    // Its reply streams in from the first piece, as it does in a thread the page already followed.
    await page.waitForSelector('.message.live p >> text=Here is what');
    expect(await page.textContent('.message.live p')).not.toContain('arrive on the page.');
    release();
    await page.waitForSelector('.message.assistant:not(.live):nth-child(4) >> text=arrive on the page.');
    expect(await page.locator('.message.user').count()).toBe(2);
  });

  it('streams the first reply of a new chat from its first piece, and every piece once', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    onCleanup(() => release());
    const page = await openPage(await serve(createSlowAgent(held)));
    // Every text the reply's bubble shows while it streams, in order.
    await page.evaluate(() => {
      const shown: string[] = [];
      (globalThis as unknown as { shownReplies: string[] }).shownReplies = shown;
      new MutationObserver(() => {
        const text = document.querySelector('.message.live p')?.textContent ?? '';
        if (text && text !== shown.at(-1)) shown.push(text);
      }).observe(document.getElementById('messages') as HTMLElement, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await say(page, 'stream me something');
    // The model holds the rest of the answer: the turn cannot end before this is on the page.
    await page.waitForSelector('.message.live p >> text=Here is what');
    expect(await page.textContent('.message.live p')).not.toContain('arrive on the page.');
    expect(await page.locator('body').getAttribute('data-busy')).toBe('true');
    await shoot(page, '0-first-reply-streaming');
    release();
    await page.waitForSelector('.message.assistant:not(.live) >> text=arrive on the page.');
    await page.waitForSelector('body[data-busy="false"]');
    const reply = (await page.textContent('.message.assistant:not(.live) p')) ?? '';
    const shown = await page.evaluate(
      () => (globalThis as unknown as { shownReplies: string[] }).shownReplies,
    );
    // The bubble grew from the first piece to the whole reply, each piece added once and none left out.
    expect(shown.length).toBeGreaterThanOrEqual(2);
    expect(reply.startsWith(shown[0] ?? '-')).toBe(true);
    for (const [index, text] of shown.entries()) {
      expect(reply.startsWith(text)).toBe(true);
      if (index > 0) expect(text.length).toBeGreaterThan(shown[index - 1]?.length ?? 0);
    }
    expect(shown.at(-1)).toBe(reply);
    // One question, one answer; the thread is the one the page names.
    expect(await page.locator('.message').count()).toBe(2);
    expect(new URL(page.url()).searchParams.get('thread')).toMatch(/^chat-/);
    await page.waitForSelector('#thread-list button[aria-current="true"] >> text=stream me something');
  });

  it('resumes after a dropped connection: what happened meanwhile shows once, nothing twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-ui-'));
    const { agent } = createTravelExample({
      store: createSqliteStore({ path: join(dir, 'ui.db') }),
      env: {},
    });
    const auth = { tokens: new Map([[pageToken, 'ada']]) };
    const first = createServer({ agent, auth });
    const { url } = await first.listen();
    let second: ReturnType<typeof createServer> | undefined;
    onCleanup(async () => {
      await first.close();
      await second?.close();
      await agent.close();
    });
    const page = await openPage(url);
    await say(page, 'flights to Lisbon on 2026-12-05');
    await page.waitForSelector('.message.assistant >> text=Found 2 flights to Lisbon');
    await page.waitForSelector('body[data-busy="false"]');
    const threadId = new URL(page.url()).searchParams.get('thread') ?? '';

    // The server goes away; while it is away the thread has a second turn, sent by another client.
    await first.close();
    await page.waitForSelector('#connection[data-state="reconnecting"]');
    await agent.send({ threadId, text: 'flights to Paris on 2026-12-06', principal: 'ada' });
    second = createServer({ agent, auth });
    await second.listen({ port: Number(new URL(url).port) });

    // The page comes back by itself, with the second turn's reply and its events.
    await page.waitForSelector('#connection[data-state="live"]');
    await page.waitForSelector('.message.assistant >> text=Found 2 flights to Paris');
    await page.waitForSelector('#event-tree >> text=Turn 2');
    const resumed = await page.locator('#event-tree li').allTextContents();
    await shoot(page, '3-resumed');
    // The same events as a page that reads the whole thread afresh: none missing, none twice.
    await page.reload();
    await page.waitForSelector('#event-tree >> text=Turn 2');
    expect(await page.locator('#event-tree li').allTextContents()).toEqual(resumed);
    expect(await page.locator('.message').count()).toBe(4);
  });
});
