// Threads are listed by what was asked in them, not by their ids (issue 34).
import { afterEach, describe, expect, it } from 'vitest';
import { api, startTestServer } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

describe('GET /v1/threads', () => {
  it('titles each thread with its first message, on one line and shortened', async () => {
    const server = await startTestServer();
    running.push(server);
    const alice = api(server.url, 'alice');
    const short = await (await alice('/v1/threads', { method: 'POST', json: { text: 'weather?' } })).json();
    await alice(`/v1/threads/${short.threadId}/messages`, { method: 'POST', json: { text: 'Oslo' } });
    const long = `What is the weather\nin ${'Oslo and '.repeat(10)}Bergen?`;
    const other = await (await alice('/v1/threads', { method: 'POST', json: { text: long } })).json();
    const { threads } = await (await alice('/v1/threads')).json();
    const titles = new Map(threads.map((t: { threadId: string; title?: string }) => [t.threadId, t.title]));
    expect(titles.get(short.threadId)).toBe('weather?');
    const title = titles.get(other.threadId) as string;
    expect(title.startsWith('What is the weather in Oslo and Oslo')).toBe(true);
    expect(title.endsWith('…')).toBe(true);
    expect(title.length).toBeLessThanOrEqual(60);
  });
});
