import { afterEach, describe, expect, it } from 'vitest';
import { api, readServerSentEvents, startTestServer, tokens } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options?: Parameters<typeof startTestServer>[0]) {
  const server = await startTestServer(options);
  running.push(server);
  return server;
}

describe('HTTP API', () => {
  it('refuses requests without a known bearer token with a 401 problem', async () => {
    const { url } = await start();
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${tokens.alice}`]) {
      const response = await fetch(`${url}/v1/threads`, authorization ? { headers: { authorization } } : {});
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('www-authenticate')).toContain('Bearer');
      expect(await response.json()).toMatchObject({
        status: 401,
        code: 'unauthorized',
        type: 'urn:flowstack:problem:unauthorized',
      });
    }
  });

  it('runs a turn and answers with the turn result; the thread reads back with its messages', async () => {
    const { url } = await start();
    const alice = api(url, 'alice');
    const created = await alice('/v1/threads', { method: 'POST', json: { text: 'weather?' } });
    expect(created.status).toBe(201);
    const first = await created.json();
    expect(first).toMatchObject({ status: 'needs-input', reply: 'Which city?' });
    expect(created.headers.get('location')).toBe(`/v1/threads/${first.threadId}`);
    const second = await alice(`/v1/threads/${first.threadId}/messages`, {
      method: 'POST',
      json: { text: 'Oslo' },
    });
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ status: 'completed', reply: 'It is 21 °C.' });
    const thread = await (await alice(`/v1/threads/${first.threadId}`)).json();
    expect(thread.messages.map((m: { text: string }) => m.text)).toEqual([
      'weather?',
      'Which city?',
      'Oslo',
      'It is 21 °C.',
    ]);
    expect(thread.capabilities).toEqual({ resume: true, rollback: true });
    expect(thread.fileSnapshots).toEqual([]);
    expect(thread.lastEventId).toBeGreaterThan(0);
    const observations = await (await alice(`/v1/threads/${first.threadId}/observations?after=0`)).json();
    expect(observations.observations.at(-1).id).toBe(thread.lastEventId);
    const list = await (await alice('/v1/threads')).json();
    expect(list.threads.map((t: { threadId: string }) => t.threadId)).toEqual([first.threadId]);
  });

  it('answers bad requests with problem details that say what is wrong, and changes nothing', async () => {
    const { url, agent } = await start({ server: { maxBodyBytes: 1024 } });
    const alice = api(url, 'alice');
    const cases: Array<[RequestInit & { json?: unknown }, number, string]> = [
      [{ method: 'POST', json: { text: '   ' } }, 400, 'input_empty'],
      [{ method: 'POST', json: {} }, 400, 'invalid_body'],
      [{ method: 'POST', json: { text: 'hi', extra: 1 } }, 400, 'invalid_body'],
      [
        { method: 'POST', body: '{"text": ', headers: { 'content-type': 'application/json' } },
        400,
        'invalid_json',
      ],
      [
        { method: 'POST', body: 'text=hi', headers: { 'content-type': 'text/plain' } },
        415,
        'unsupported_media_type',
      ],
      [{ method: 'POST', json: { text: 'x'.repeat(2_000) } }, 413, 'body_too_large'],
    ];
    for (const [init, status, code] of cases) {
      const response = await alice('/v1/threads/t-bad/messages', init);
      expect(response.status, code).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const body = await response.json();
      expect(body).toMatchObject({ status, code });
      if (code === 'invalid_body') expect(body.errors.length).toBeGreaterThan(0);
    }
    const missing = await (await alice('/v1/threads/t-bad/messages', { method: 'POST', json: {} })).json();
    expect(missing.errors).toEqual([{ pointer: '/text', detail: expect.any(String) }]);
    expect(await agent.store.loadThread('t-bad')).toBeUndefined();
    expect((await alice('/v1/threads/bad%20id')).status).toBe(400);
    expect((await alice('/v1/nothing-here')).status).toBe(404);
  });

  it('answers an unknown suspension or file snapshot with 404, and rollback with 501 from an agent without it', async () => {
    const { url } = await start();
    const alice = api(url, 'alice');
    const { threadId } = await (
      await alice('/v1/threads', { method: 'POST', json: { text: 'weather in Oslo' } })
    ).json();
    const resume = await alice(`/v1/threads/${threadId}/suspensions/s1`, {
      method: 'POST',
      json: { feedback: { decision: 'approve' } },
    });
    expect(resume.status).toBe(404);
    expect(await resume.json()).toMatchObject({ code: 'suspension_not_found', suspensionId: 's1' });
    const unnamed = await alice(`/v1/threads/${threadId}/rollback`, { method: 'POST', json: {} });
    expect(unnamed.status).toBe(400);
    const unknown = await alice(`/v1/threads/${threadId}/rollback`, {
      method: 'POST',
      json: { snapshotId: 'fs_0123456789abcdef01234567' },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'file_snapshot_not_found' });

    const { createWeatherAgent } = await import('./fixtures/server-fixture.js');
    const { agent } = createWeatherAgent();
    const { rollback: _rollback, ...withoutRollback } = agent;
    const other = api((await start({ agent: withoutRollback })).url, 'alice');
    const created = await (
      await other('/v1/threads', { method: 'POST', json: { text: 'weather in Oslo' } })
    ).json();
    const refused = await other(`/v1/threads/${created.threadId}/rollback`, {
      method: 'POST',
      json: { snapshotId: 'fs_0123456789abcdef01234567' },
    });
    expect(refused.status).toBe(501);
  });

  it('validates approval feedback and passes it to resume', async () => {
    const calls: unknown[] = [];
    const { createWeatherAgent } = await import('./fixtures/server-fixture.js');
    const { agent } = createWeatherAgent();
    const resumable = Object.assign(Object.create(null), agent, {
      resume: async (options: { threadId: string; feedback: unknown }) => {
        calls.push(options.feedback);
        return agent.send({ threadId: options.threadId, text: 'Oslo', principal: 'alice' });
      },
    });
    const { url } = await start({ agent: resumable });
    const alice = api(url, 'alice');
    const { threadId } = await (
      await alice('/v1/threads', { method: 'POST', json: { text: 'weather?' } })
    ).json();
    const bad = await alice(`/v1/threads/${threadId}/suspensions/s1`, {
      method: 'POST',
      json: { feedback: { decision: 'reject', reason: '' } },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].pointer).toBe('/feedback/reason');
    // The reason is optional, as in `agent.resume`: a plain no is an answer.
    const plain = await alice(`/v1/threads/${threadId}/suspensions/s1`, {
      method: 'POST',
      json: { feedback: { decision: 'reject' } },
    });
    expect(plain.status).toBe(200);
    const good = await alice(`/v1/threads/${threadId}/suspensions/s1`, {
      method: 'POST',
      json: { feedback: { decision: 'reject', reason: 'too expensive' } },
    });
    expect(good.status).toBe(200);
    // The decisions of the runtime's other questions go to the agent, which checks them against the
    // question's own schema (an unknown outcome, a failed file change).
    for (const feedback of [{ decision: 'not-happened' }, { decision: 'rollback', force: true }]) {
      const answered = await alice(`/v1/threads/${threadId}/suspensions/s1`, {
        method: 'POST',
        json: { feedback },
      });
      expect(answered.status).toBe(200);
    }
    expect(calls).toEqual([
      { decision: 'reject' },
      { decision: 'reject', reason: 'too expensive' },
      { decision: 'not-happened' },
      { decision: 'rollback', force: true },
    ]);
  });

  it('answers 202 with where to stream from, and the stream carries the whole turn', async () => {
    const { url, gate } = await start();
    const alice = api(url, 'alice');
    gate?.hold();
    const accepted = await alice('/v1/threads', {
      method: 'POST',
      json: { text: 'weather in Oslo' },
      headers: { prefer: 'respond-async' },
    });
    expect(accepted.status).toBe(202);
    const body = await accepted.json();
    expect(body).toMatchObject({ afterId: 0, events: `/v1/threads/${body.threadId}/events` });
    // The thread exists for its principal while its first turn runs, and for nobody else.
    expect((await alice(`/v1/threads/${body.threadId}`)).status).toBe(200);
    expect((await api(url, 'bob')(`/v1/threads/${body.threadId}`)).status).toBe(404);
    const controller = new AbortController();
    const stream = await alice(body.events, {
      headers: { 'last-event-id': String(body.afterId) },
      signal: controller.signal,
    });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    await gate?.waiting();
    gate?.release();
    const types: string[] = [];
    for await (const event of readServerSentEvents(stream.body as ReadableStream<Uint8Array>)) {
      const observation = JSON.parse(event.data);
      if (event.event === 'observation') types.push(observation.type);
      if (observation.type === 'final-response') break;
    }
    controller.abort();
    expect(types).toEqual([
      'intent',
      'flow-push',
      'tool-call',
      'tool-execution',
      'flow-pop',
      'final-response',
    ]);
  });

  it('streams a turn in the response to Accept: text/event-stream, ending with the turn result', async () => {
    const { url } = await start();
    const response = await api(url, 'alice')('/v1/threads/t-stream/messages', {
      method: 'POST',
      json: { text: 'weather in Oslo' },
      headers: { accept: 'text/event-stream' },
    });
    const events: Array<{ event: string; type?: string }> = [];
    for await (const event of readServerSentEvents(response.body as ReadableStream<Uint8Array>))
      events.push({ event: event.event, type: JSON.parse(event.data).type });
    expect(events.filter((e) => e.event === 'progress').map((e) => e.type)).toContain('model-stream-start');
    expect(events.filter((e) => e.event === 'observation').map((e) => e.type)).toEqual([
      'intent',
      'flow-push',
      'tool-call',
      'tool-execution',
      'flow-pop',
      'final-response',
    ]);
    expect(events.at(-1)?.event).toBe('turn');
  });

  it('refuses a second turn on a thread while one runs with 409', async () => {
    const { url, gate } = await start();
    const alice = api(url, 'alice');
    gate?.hold();
    const first = alice('/v1/threads/t-busy/messages', { method: 'POST', json: { text: 'weather in Oslo' } });
    await gate?.waiting();
    const second = await alice('/v1/threads/t-busy/messages', {
      method: 'POST',
      json: { text: 'weather in Rome' },
    });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ code: 'thread_busy' });
    gate?.release();
    expect((await first).status).toBe(201);
  });

  it('serves an OpenAPI 3.1 document that describes every route', async () => {
    const { url, server } = await start();
    const document = await (await fetch(`${url}/v1/openapi.json`)).json();
    expect(document.openapi).toBe('3.1.0');
    const documented = new Set(
      Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
        Object.keys(methods).map((m) => `${m.toUpperCase()} ${path.replaceAll(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    const routes = server.app.routes
      .filter((r) => r.path.startsWith('/v1/') && r.method !== 'ALL' && r.path !== '/v1/openapi.json')
      .map((r) => `${r.method} ${r.path}`);
    expect(routes.length).toBeGreaterThan(8);
    for (const route of routes) expect(documented, route).toContain(route);
    expect(document.components.schemas.TurnResult.properties.status.enum).toContain('suspended');
    expect(
      document.paths['/v1/threads'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['text']);
  });
});
