// The page's only way to the agent: the public HTTP API, with the bearer token the page was given.
// Event streams are read with fetch (EventSource cannot send an Authorization header) and resumed
// after a dropped connection with Last-Event-ID, so no stored event is missed or shown twice. A turn
// on a thread that does not exist yet is read from the answer to its own request, which streams from
// the turn's first event on.

export class ApiError extends Error {
  constructor(problem, status) {
    super(problem?.detail ?? problem?.title ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.problem = problem;
    this.status = status;
  }
}

export function createApi(token) {
  async function request(path, options = {}) {
    const headers = { authorization: `Bearer ${token}`, ...(options.headers ?? {}) };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const type = response.headers.get('content-type') ?? '';
    const data = type.includes('json') ? await response.json() : await response.text();
    if (!response.ok) throw new ApiError(data, response.status);
    return data;
  }

  /**
   * Follows a thread's events from `lastEventId` until `signal` aborts, reconnecting with backoff.
   * `onEvent(kind, observation)` gets 'observation' (stored, with id) or 'progress'.
   */
  async function followEvents(threadId, { lastEventId, onEvent, onConnection, signal }) {
    let last = lastEventId ?? 0;
    let delay = 250;
    while (!signal.aborted) {
      try {
        const response = await fetch(`/v1/threads/${encodeURIComponent(threadId)}/events`, {
          headers: { authorization: `Bearer ${token}`, 'last-event-id': String(last) },
          signal,
        });
        if (!response.ok) throw new ApiError(await response.json().catch(() => undefined), response.status);
        onConnection?.('live');
        delay = 250;
        for await (const event of readEvents(response.body)) {
          const observation = JSON.parse(event.data);
          if (event.event === 'observation') {
            if (observation.id <= last) continue;
            last = observation.id;
          }
          onEvent(event.event, observation);
        }
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof ApiError && error.status < 500) {
          onConnection?.('failed', error);
          return;
        }
      }
      if (signal.aborted) return;
      onConnection?.('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 5_000);
    }
  }

  /**
   * Sends a request that runs a turn and reads the turn's events from its answer (`Accept:
   * text/event-stream`): `onEvent(kind, observation)` as for `followEvents`, from before the turn's first
   * event, so that nothing the turn does is missed even where its thread cannot be followed yet. Returns
   * the thread's id, the last stored event read (to follow the thread on from), and the turn's `result`
   * or `problem` — neither when the connection dropped first.
   */
  async function streamTurn(path, { body, onEvent, signal }) {
    const response = await fetch(path, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify(body),
      signal,
    });
    if (!response.ok) throw new ApiError(await response.json().catch(() => undefined), response.status);
    const streamed = { lastEventId: 0, threadId: undefined, result: undefined, problem: undefined };
    try {
      for await (const event of readEvents(response.body)) {
        const data = JSON.parse(event.data);
        if (event.event === 'turn') streamed.result = data;
        else if (event.event === 'problem') streamed.problem = data;
        else {
          streamed.threadId ??= data.threadId;
          if (event.event === 'observation') streamed.lastEventId = Math.max(streamed.lastEventId, data.id);
          onEvent(event.event, data);
        }
      }
    } catch (error) {
      // A dropped connection: the caller follows the thread on from the last event read.
      if (signal.aborted) throw error;
    }
    return streamed;
  }

  return { request, followEvents, streamTurn };
}

async function* readEvents(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = {};
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      if (line === '') {
        if (event.data !== undefined)
          yield { event: event.event ?? 'message', data: event.data, id: event.id };
        event = {};
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') event.data = event.data === undefined ? text : `${event.data}\n${text}`;
        else if (field === 'event') event.event = text;
        else if (field === 'id') event.id = text;
      }
    }
  }
}
