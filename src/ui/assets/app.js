// The flowstack web page: chat with the agent, watch what it does (live progress, the flow stack, the
// TodoList, the event tree), answer approvals, roll back. It uses nothing but the public HTTP API.
// Over 400 lines: it is the page's one state and every handler that changes it, kept together so that
// the order in which they touch it can be read in one place; drawing (render.js, frames.js, event-tree.js),
// the plan (plan-state.js) and the API (api.js) are modules of their own.
import { createApi } from './api.js';
import { buildEventTree } from './event-tree.js';
import { createFrameView, releaseFrameView } from './frames.js';
import { reducePlan } from './plan-state.js';
import {
  describeProgress,
  element,
  humanize,
  renderMessages,
  renderPlan,
  renderStack,
  renderThreads,
  renderTree,
} from './render.js';
import { buildSuspensionForm, readAnswer } from './suspension-form.js';

const byId = (id) => document.getElementById(id);
const tokenKey = 'flowstack-token';
/** Stored observations after which the thread view (messages, stack, suspension) is read again. */
const refreshOn = new Set([
  'flow-push',
  'flow-pop',
  'clarification',
  'suspended',
  'resumed',
  'file-rollback',
  'final-response',
  'error',
]);

const state = {
  api: undefined,
  threads: [],
  threadId: undefined,
  thread: undefined,
  observations: [],
  plan: undefined,
  follow: undefined,
  /** The message being sent, shown until the thread's stored messages hold it. */
  pendingText: undefined,
  /** The reply as it streams in, by the model answer it belongs to. */
  liveTexts: new Map(),
  /** The thread's display frames (`{ turnId, frame }`) and the element made for each. */
  frames: [],
  frameViews: new Map(),
  /**
   * Whether this connection saw the current model answer start: a stream that joins mid-answer missed
   * its first pieces, and shows the reply when it is stored rather than its tail alone.
   */
  answerSeenFromStart: false,
  /** The person pressed Stop: the end of the turn is theirs, not a failure. */
  stopping: false,
  /**
   * Settles once the page reads the thread's events (or gave up connecting): a message sent before that
   * would start a turn whose first pieces no stream of the page reads.
   */
  following: Promise.resolve(),
  /** Messages whose request has not been answered yet: until it is, the turn may not be running. */
  sending: 0,
  refreshTimer: undefined,
  shownSuspension: undefined,
  signInWired: false,
};
/** Asks for the reply as it is written (text deltas on the thread's events) as well as a 202. */
const turnHeaders = { prefer: 'respond-async', accept: 'application/json, text/event-stream' };

start();

function start() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem(tokenKey, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
  }
  const token = sessionStorage.getItem(tokenKey);
  if (!token) {
    askForToken();
    return;
  }
  state.api = createApi(token);
  wire();
  loadThreads()
    .then(() => {
      const wanted = new URLSearchParams(location.search).get('thread');
      const first = wanted ?? state.threads[0]?.threadId;
      if (first) return selectThread(first);
      showEmpty();
    })
    .catch(handleError);
}

function askForToken() {
  const dialog = byId('login');
  if (!state.signInWired) {
    state.signInWired = true;
    byId('login-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const token = byId('login-token').value.trim();
      if (!token) return;
      sessionStorage.setItem(tokenKey, token);
      dialog.close();
      start();
    });
  }
  if (!dialog.open) dialog.showModal();
  byId('login-token').focus();
}

function wire() {
  byId('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = byId('message');
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    send(text).catch(handleError);
  });
  byId('message').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      byId('composer').requestSubmit();
    }
  });
  byId('new-thread').addEventListener('click', () => {
    state.follow?.abort();
    resetThreadView(undefined);
    history.replaceState(null, '', location.pathname);
    renderThreads(byId('thread-list'), state.threads, undefined, (id) => selectThread(id).catch(handleError));
    showEmpty();
    byId('message').focus();
  });
  byId('stop').addEventListener('click', () => stop().catch(handleError));
  byId('approval-form').addEventListener('submit', (event) => {
    event.preventDefault();
    answerSuspension(event.submitter?.value).catch(handleError);
  });
}

async function loadThreads() {
  const { threads } = await state.api.request('/v1/threads?limit=100');
  state.threads = threads;
  renderThreads(byId('thread-list'), threads, state.threadId, (id) => selectThread(id).catch(handleError));
}

/** Forgets what the page showed of the last thread. */
function resetThreadView(threadId) {
  for (const view of state.frameViews.values()) releaseFrameView(view);
  Object.assign(state, {
    threadId,
    thread: undefined,
    observations: [],
    plan: undefined,
    pendingText: undefined,
    liveTexts: new Map(),
    frames: [],
    frameViews: new Map(),
    stopping: false,
    shownSuspension: undefined,
  });
}

async function selectThread(threadId) {
  state.follow?.abort();
  resetThreadView(threadId);
  history.replaceState(null, '', `${location.pathname}?thread=${encodeURIComponent(threadId)}`);
  renderThreads(byId('thread-list'), state.threads, threadId, (id) => selectThread(id).catch(handleError));
  await refreshThread();
  const { observations } = await state.api.request(
    `/v1/threads/${encodeURIComponent(threadId)}/observations?after=0&limit=10000`,
  );
  for (const observation of observations) addObservation(observation);
  renderObservations();
  follow(threadId, state.observations.at(-1)?.id ?? 0);
}

/** Follows the thread's events after `lastEventId`: stored ones (each once), progress and reply text. */
function follow(threadId, lastEventId) {
  state.follow?.abort();
  const controller = new AbortController();
  state.follow = controller;
  let connected = () => undefined;
  state.following = new Promise((resolve) => {
    connected = resolve;
  });
  controller.signal.addEventListener('abort', connected, { once: true });
  state.api.followEvents(threadId, {
    lastEventId,
    signal: controller.signal,
    onConnection: (status) => {
      connected();
      if (status === 'live') state.answerSeenFromStart = false;
      showConnection(status);
    },
    onEvent: (kind, observation) =>
      kind === 'observation' ? onObservation(observation) : onProgress(observation),
  });
}

function showConnection(status) {
  byId('connection').dataset.state = status;
  byId('connection').textContent = status;
}

function addObservation(observation) {
  state.observations.push(observation);
  state.plan = reducePlan(state.plan, observation);
}

function onObservation(observation) {
  addObservation(observation);
  renderObservations();
  if (observation.type === 'final-response') {
    // The turn is over: the stored reply replaces the streamed one when the thread is read again.
    if (!state.threads.some((t) => t.threadId === observation.threadId && t.title))
      loadThreads().catch(handleError);
    state.stopping = false;
    setStatus('');
    setBusy(false);
  }
  // The plan's step being worked on is what the agent is doing now.
  if (observation.type === 'item-status-change' && observation.data?.to === 'in_progress') {
    const item = state.plan?.items.find((i) => i.id === observation.data.itemId);
    if (item && document.body.dataset.busy === 'true') setStatus(`Working on: ${item.description}…`);
  }
  if (refreshOn.has(observation.type)) scheduleRefresh();
}

function onProgress(observation) {
  if (observation.type === 'model-stream-start') state.answerSeenFromStart = true;
  if (observation.type === 'text-delta' && !state.answerSeenFromStart) return;
  if (observation.type === 'text-delta' || observation.type === 'text-discard') {
    const { textId, delta } = observation.data ?? {};
    if (observation.type === 'text-discard') state.liveTexts.delete(textId);
    else state.liveTexts.set(textId, (state.liveTexts.get(textId) ?? '') + String(delta ?? ''));
    showLiveText();
  }
  if (observation.type === 'error') {
    state.pendingText = undefined;
    state.liveTexts.clear();
    setBusy(false);
    scheduleRefresh();
    if (state.stopping) {
      state.stopping = false;
      setStatus('Stopped.');
      byId('status').dataset.active = 'false';
      return;
    }
  }
  const line = describeProgress(observation);
  if (line !== undefined) setStatus(line);
  if (observation.type === 'error') byId('status').dataset.active = 'false';
}

/** The streamed reply in its bubble: only its text changes while it grows. */
function showLiveText() {
  const text = [...state.liveTexts.values()].join('');
  const bubble = byId('messages').querySelector('.message.live p');
  if (bubble && text) {
    bubble.textContent = text;
    bubble.parentElement.scrollIntoView({ block: 'end' });
  } else renderConversation();
}

function renderConversation() {
  renderMessages(byId('messages'), state.thread?.messages ?? [], {
    pendingText: state.pendingText,
    liveText: [...state.liveTexts.values()].join(''),
    frameViews: framesOfTurn,
  });
}

/**
 * The elements of a turn's frames, made once each so a table keeps its sorting and loaded pages. A text
 * frame that says what the reply already says is not shown twice.
 */
function framesOfTurn(turnId, replyText = '') {
  const threadId = state.threadId;
  return state.frames
    .map((entry, index) => ({ ...entry, key: `${entry.turnId}:${index}` }))
    .filter((entry) => entry.turnId === turnId)
    .filter(
      ({ frame }) => frame.displayType !== 'text' || !replyText.includes(String(frame.data ?? '').trim()),
    )
    .map(({ frame, key }) => {
      let view = state.frameViews.get(key);
      if (!view) {
        view = createFrameView(frame, (tableId, page) =>
          state.api.request(
            `/v1/threads/${encodeURIComponent(threadId)}/frames/${encodeURIComponent(tableId)}?page=${page}`,
          ),
        );
        state.frameViews.set(key, view);
      }
      return view;
    });
}

function renderObservations() {
  renderTree(byId('event-tree'), buildEventTree(state.observations));
  renderPlan(byId('plan-section'), byId('plan'), state.plan);
}

function scheduleRefresh() {
  clearTimeout(state.refreshTimer);
  state.refreshTimer = setTimeout(() => refreshThread().catch(handleError), 50);
}

async function refreshThread() {
  const threadId = state.threadId;
  if (!threadId) return;
  const path = `/v1/threads/${encodeURIComponent(threadId)}`;
  const [thread, { frames }] = await Promise.all([
    state.api.request(path),
    state.api.request(`${path}/frames`).catch(() => ({ frames: [] })),
  ]);
  // Another thread was chosen meanwhile.
  if (threadId !== state.threadId) return;
  state.thread = thread;
  state.frames = frames;
  // A message still being sent is not in the stored thread yet, and its turn may not have started.
  const sending = state.sending > 0;
  if (!thread.running && !sending) {
    // Nothing runs: the sent message and the streamed reply are now the thread's stored messages, and
    // no progress line can still be true.
    state.pendingText = undefined;
    state.liveTexts.clear();
    if (byId('status').dataset.active === 'true') setStatus('');
  }
  renderConversation();
  renderStack(byId('stack'), thread.stack, thread.pending);
  renderFileSnapshots(thread);
  setBusy(thread.running || sending);
  showSuspension(thread);
}

async function send(text) {
  if (!state.threadId) return startThread(text);
  const threadId = state.threadId;
  state.pendingText = text;
  state.liveTexts.clear();
  setBusy(true);
  setStatus('Sending…');
  renderConversation();
  state.sending += 1;
  try {
    // Right after a new chat's first reply the page is still moving from that reply's stream to the
    // thread's: the turn starts once the page follows it, so that its reply streams from the first piece.
    await state.following;
    await state.api.request(`/v1/threads/${encodeURIComponent(threadId)}/messages`, {
      method: 'POST',
      body: { text },
      headers: turnHeaders,
    });
  } finally {
    state.sending -= 1;
  }
}

/**
 * A new chat: the page picks its id and reads the first turn from the answer to its message, which
 * streams from the turn's first event — the thread's own event stream cannot be opened before the
 * thread exists, and a stream opened after the 202 would miss the reply's first pieces. When that answer
 * ends (or its connection drops), the page follows the thread from the last stored event it read.
 */
async function startThread(text) {
  const chosen = newThreadId();
  resetThreadView(chosen);
  history.replaceState(null, '', `${location.pathname}?thread=${encodeURIComponent(chosen)}`);
  state.follow?.abort();
  const controller = new AbortController();
  state.follow = controller;
  // A message sent while this turn's answer is read waits until the page follows the thread (`send`).
  let switched = () => undefined;
  const switching = new Promise((resolve) => {
    switched = resolve;
  });
  state.following = switching;
  try {
    state.pendingText = text;
    setBusy(true);
    setStatus('Sending…');
    renderConversation();
    showConnection('live');
    let named = false;
    const onEvent = (kind, observation) => {
      // The server may keep a chosen id in the sender's own namespace: the thread is known by the id its
      // events name from now on, as the thread list names it.
      if (!named && observation.threadId) {
        named = true;
        knowThreadAs(observation.threadId);
        loadThreads().catch(handleError);
      }
      if (kind === 'observation') onObservation(observation);
      else onProgress(observation);
    };
    const path = `/v1/threads/${encodeURIComponent(chosen)}/messages`;
    const streamed = await state.api
      .streamTurn(path, { body: { text }, signal: controller.signal, onEvent })
      .catch((error) => {
        // Another chat was chosen meanwhile: the turn goes on, this view of it ends.
        if (controller.signal.aborted) return undefined;
        throw error;
      });
    if (!streamed || controller.signal.aborted) return;
    if (streamed.threadId) knowThreadAs(streamed.threadId);
    // The failure of a turn read this way comes as its answer's problem: it ends the turn like its event.
    if (streamed.problem) onProgress(turnFailure(streamed.problem));
    follow(state.threadId, streamed.lastEventId);
    switched(state.following);
    await loadThreads();
    scheduleRefresh();
  } finally {
    // The answer was not read to its end (another chat, an error): nothing is left to wait for.
    if (state.following === switching) state.following = Promise.resolve();
    switched();
  }
}

function knowThreadAs(threadId) {
  state.threadId = threadId;
  history.replaceState(null, '', `${location.pathname}?thread=${encodeURIComponent(threadId)}`);
}

/** A turn's failure, told as the thread's events tell it (`TurnRunner`'s `error` event). */
function turnFailure(problem) {
  return {
    id: 0,
    threadId: state.threadId,
    type: 'error',
    data: {
      phase: 'turn',
      code: problem?.code,
      status: problem?.status,
      message: problem?.detail ?? problem?.title,
    },
  };
}

/** A new chat's id; `getRandomValues` also works where `randomUUID` does not (plain http on a LAN). */
function newThreadId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `chat-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

async function stop() {
  if (!state.threadId) return;
  state.stopping = true;
  setStatus('Stopping…');
  const { cancelled } = await state.api.request(`/v1/threads/${encodeURIComponent(state.threadId)}/cancel`, {
    method: 'POST',
  });
  if (!cancelled) {
    state.stopping = false;
    scheduleRefresh();
  }
}

function showSuspension(thread) {
  const dialog = byId('approval');
  const suspension = thread.suspensions?.[0];
  if (!suspension) {
    if (dialog.open) dialog.close();
    state.shownSuspension = undefined;
    return;
  }
  const key = suspension.suspensionId ?? suspension.callId;
  // Shown already, or answered and waiting for the turn to go on.
  if ((state.shownSuspension === key && dialog.open) || state.answeredSuspension === key) return;
  state.shownSuspension = key;
  const form = buildSuspensionForm(suspension);
  byId('approval-title').textContent = form.title;
  // An approval is described by the call itself (the fields show its arguments); the runtime's grounds
  // for asking are its own words, not the person's.
  byId('approval-prompt').textContent =
    form.kind === 'approval'
      ? `The agent wants to ${suspension.callWords ? `do this: ${suspension.callWords.title}` : humanize(suspension.toolName)}. Check the details, then approve or reject.`
      : suspension.prompt;
  byId('approval-fields').replaceChildren(...form.fields);
  const canResume = thread.capabilities.resume && suspension.suspensionId !== undefined;
  byId('approval-actions').replaceChildren(
    ...form.buttons.map(([value, label]) =>
      element('button', { type: 'submit', name: 'decision', value, text: label, disabled: !canResume }),
    ),
  );
  byId('approval-unavailable').hidden = canResume;
  byId('approval-error').textContent = '';
  dialog.dataset.kind = suspension.kind ?? 'approval';
  if (!dialog.open) dialog.show();
  dialog.querySelector('button:not([disabled])')?.focus();
}

async function answerSuspension(choice) {
  const suspension = state.thread?.suspensions?.[0];
  if (!suspension?.suspensionId || choice === undefined) return;
  const answer = readAnswer(suspension, choice, byId('approval-form'));
  if (answer.error) {
    byId('approval-error').textContent = answer.error;
    return;
  }
  state.answeredSuspension = suspension.suspensionId;
  byId('approval').close();
  setBusy(true);
  setStatus('Resuming…');
  const id = encodeURIComponent(suspension.suspensionId);
  await state.api.request(`/v1/threads/${encodeURIComponent(state.threadId)}/suspensions/${id}`, {
    method: 'POST',
    body: { feedback: answer.feedback },
    headers: turnHeaders,
  });
}

function renderFileSnapshots(thread) {
  const snapshots = thread.fileSnapshots ?? [];
  byId('files-section').hidden = snapshots.length === 0 && !thread.capabilities.rollback;
  byId('file-snapshots').replaceChildren(
    ...(snapshots.length === 0
      ? [
          element('li', {
            class: 'empty',
            text: thread.capabilities.rollback
              ? 'No file changes to roll back.'
              : 'This server cannot roll back yet.',
          }),
        ]
      : snapshots.map((snapshot) => {
          const button = element('button', {
            type: 'button',
            class: 'rollback',
            'data-snapshot': snapshot.id,
            text: 'Roll back',
            disabled: !thread.capabilities.rollback || snapshot.status === 'rolled-back',
          });
          button.addEventListener('click', () => rollback(snapshot).catch(handleError));
          const what = `${snapshot.toolName}: ${(snapshot.paths ?? []).join(', ')} (${snapshot.status})`;
          return element('li', { class: 'file-snapshot' }, element('span', { text: what }), button);
        })),
  );
}

async function rollback(snapshot) {
  if (
    !state.threadId ||
    !window.confirm(`Restore ${(snapshot.paths ?? []).join(', ')} as they were before ${snapshot.toolName}?`)
  )
    return;
  const path = `/v1/threads/${encodeURIComponent(state.threadId)}/rollback`;
  let result;
  try {
    result = await state.api.request(path, { method: 'POST', body: { snapshotId: snapshot.id } });
  } catch (error) {
    // The files changed after the call: restoring them would undo that too, so the person decides.
    if (error?.problem?.code !== 'file_snapshot_conflict') throw error;
    if (!window.confirm(`${error.message}\n\nOverwrite those changes?`)) return;
    result = await state.api.request(path, {
      method: 'POST',
      body: { snapshotId: snapshot.id, force: true },
    });
  }
  const report = result.result ?? {};
  const removed = (report.removed ?? []).length > 0 ? `; removed ${report.removed.join(', ')}` : '';
  byId('rollback-result').textContent =
    `Rolled back: restored ${(report.restored ?? []).join(', ') || 'nothing'}${removed}.`;
  scheduleRefresh();
}

function setStatus(text) {
  const status = byId('status');
  status.textContent = text;
  status.dataset.active = text ? 'true' : 'false';
  status.dataset.error = 'false';
}

function setBusy(busy) {
  document.body.dataset.busy = busy ? 'true' : 'false';
  byId('send').disabled = busy;
  byId('send').hidden = busy;
  byId('stop').hidden = !busy;
}

function showEmpty() {
  renderConversation();
  renderStack(byId('stack'), [], undefined);
  renderObservations();
  setStatus('');
  setBusy(false);
}

function handleError(error) {
  if (error?.status === 401) {
    sessionStorage.removeItem(tokenKey);
    askForToken();
    return;
  }
  state.pendingText = undefined;
  state.liveTexts.clear();
  state.stopping = false;
  renderConversation();
  // An answer the agent refused may be given again.
  state.answeredSuspension = undefined;
  setBusy(false);
  setStatus(`Error: ${error?.message ?? String(error)}`);
  byId('status').dataset.error = 'true';
  byId('status').dataset.active = 'false';
}
