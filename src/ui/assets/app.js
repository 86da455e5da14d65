// The flowstack web page: chat with the agent, watch what it does (live progress, the flow stack, the
// TodoList, the event tree), answer approvals, roll back. It uses nothing but the public HTTP API.
import { createApi } from './api.js';
import { buildEventTree } from './event-tree.js';
import { reducePlan } from './plan-state.js';
import {
  describeProgress,
  element,
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
  pendingText: undefined,
  refreshTimer: undefined,
  shownSuspension: undefined,
};

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
  byId('login-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = byId('login-token').value.trim();
    if (!token) return;
    sessionStorage.setItem(tokenKey, token);
    dialog.close();
    start();
  });
  dialog.showModal();
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
    Object.assign(state, {
      threadId: undefined,
      thread: undefined,
      observations: [],
      plan: undefined,
      pendingText: undefined,
    });
    history.replaceState(null, '', location.pathname);
    showEmpty();
    byId('message').focus();
  });
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

async function selectThread(threadId) {
  state.follow?.abort();
  Object.assign(state, { threadId, observations: [], plan: undefined, shownSuspension: undefined });
  history.replaceState(null, '', `${location.pathname}?thread=${encodeURIComponent(threadId)}`);
  renderThreads(byId('thread-list'), state.threads, threadId, (id) => selectThread(id).catch(handleError));
  await refreshThread();
  const { observations } = await state.api.request(
    `/v1/threads/${encodeURIComponent(threadId)}/observations?after=0&limit=10000`,
  );
  for (const observation of observations) addObservation(observation);
  renderObservations();
  const controller = new AbortController();
  state.follow = controller;
  state.api.followEvents(threadId, {
    lastEventId: state.observations.at(-1)?.id ?? 0,
    signal: controller.signal,
    onConnection: (status) => {
      byId('connection').dataset.state = status;
      byId('connection').textContent = status;
    },
    onEvent: (kind, observation) =>
      kind === 'observation' ? onObservation(observation) : onProgress(observation),
  });
}

function addObservation(observation) {
  state.observations.push(observation);
  state.plan = reducePlan(state.plan, observation);
}

function onObservation(observation) {
  addObservation(observation);
  renderObservations();
  if (observation.type === 'final-response') {
    if (!state.threads.some((t) => t.threadId === observation.threadId)) loadThreads().catch(handleError);
    state.pendingText = undefined;
    setStatus('');
    setBusy(false);
  }
  if (refreshOn.has(observation.type)) scheduleRefresh();
}

function onProgress(observation) {
  if (observation.type === 'error') {
    state.pendingText = undefined;
    setBusy(false);
    scheduleRefresh();
  }
  const line = describeProgress(observation);
  if (line !== undefined) setStatus(line);
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
  if (!state.threadId) return;
  const thread = await state.api.request(`/v1/threads/${encodeURIComponent(state.threadId)}`);
  state.thread = thread;
  renderMessages(byId('messages'), thread.messages, state.pendingText);
  renderStack(byId('stack'), thread.stack, thread.pending);
  renderFileSnapshots(thread);
  setBusy(thread.running);
  showSuspension(thread);
}

async function send(text) {
  state.pendingText = text;
  setBusy(true);
  setStatus('Sending…');
  renderMessages(byId('messages'), state.thread?.messages ?? [], text);
  const headers = { prefer: 'respond-async' };
  if (!state.threadId) {
    const accepted = await state.api.request('/v1/threads', { method: 'POST', body: { text }, headers });
    await loadThreads();
    await selectThread(accepted.threadId);
    return;
  }
  await state.api.request(`/v1/threads/${encodeURIComponent(state.threadId)}/messages`, {
    method: 'POST',
    body: { text },
    headers,
  });
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
  byId('approval-prompt').textContent = suspension.prompt;
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
    headers: { prefer: 'respond-async' },
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
}

function showEmpty() {
  renderMessages(byId('messages'), [], undefined);
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
  // An answer the agent refused may be given again.
  state.answeredSuspension = undefined;
  setBusy(false);
  setStatus(`Error: ${error?.message ?? String(error)}`);
  byId('status').dataset.error = 'true';
  byId('status').dataset.active = 'false';
}
