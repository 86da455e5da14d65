// DOM rendering of the page's panels. Every text from the agent is set as textContent, never as
// HTML, so nothing a model or a user wrote can run in the page.

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

export function renderThreads(list, threads, currentId, onSelect) {
  list.replaceChildren(
    ...threads.map((thread) => {
      const button = element('button', {
        type: 'button',
        // A thread is found by what was asked in it; one not saved yet has no first message stored.
        text: thread.title ?? 'New chat',
        title: thread.title,
        'aria-current': thread.threadId === currentId ? 'true' : undefined,
        'data-thread-id': thread.threadId,
      });
      button.addEventListener('click', () => onSelect(thread.threadId));
      return element('li', {}, button);
    }),
  );
}

/**
 * The conversation: each message, the display frames of its turn under the agent's reply (`frameViews`
 * gives the element of each turn's frames), the message being sent, and the reply as it streams in.
 */
export function renderMessages(list, messages, options = {}) {
  const { pendingText, liveText, frameViews } = options;
  const items = messages.map((message) => {
    const views =
      message.role === 'assistant' && message.turnId
        ? (frameViews?.(message.turnId, message.text) ?? [])
        : [];
    return element(
      'li',
      { class: `message ${message.role}`, 'data-role': message.role, 'data-turn': message.turnId },
      element('p', { text: message.text }),
      ...views,
    );
  });
  if (pendingText)
    items.push(
      element(
        'li',
        { class: 'message user pending', 'data-role': 'user' },
        element('p', { text: pendingText }),
      ),
    );
  if (liveText)
    items.push(
      element(
        'li',
        { class: 'message assistant live', 'data-role': 'assistant', 'aria-busy': 'true' },
        element('p', { text: liveText }),
      ),
    );
  list.replaceChildren(...items);
  list.lastElementChild?.scrollIntoView({ block: 'end' });
}

export function renderStack(list, stack, pending) {
  if (stack.length === 0) {
    list.replaceChildren(element('li', { class: 'empty', text: 'No flow is running.' }));
    return;
  }
  list.replaceChildren(
    ...[...stack].reverse().map((flow) => {
      const slots = Object.entries(flow.slots ?? {})
        .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(', ');
      const asking = pending && pending.flowId === flow.id ? `asks for ${pending.slot}` : '';
      return element(
        'li',
        { class: `flow ${flow.status}`, 'data-flow': flow.name, 'data-status': flow.status },
        element('strong', { text: flow.name }),
        element('span', { class: 'badge', text: flow.status }),
        slots ? element('small', { text: slots }) : undefined,
        asking ? element('small', { class: 'asking', text: asking }) : undefined,
      );
    }),
  );
}

export function renderPlan(section, list, plan) {
  section.hidden = !plan;
  if (!plan) return;
  list.replaceChildren(
    ...plan.items.map((item) =>
      element(
        'li',
        { class: `todo ${item.status}`, 'data-item': item.id, 'data-status': item.status },
        element('span', { class: 'todo-status', 'aria-hidden': 'true', text: statusMark(item.status) }),
        element('span', { text: item.description }),
      ),
    ),
  );
}

// Marks every default font has (no emoji-only glyphs such as the pause sign, which shows as a box).
function statusMark(status) {
  return { completed: '✔', in_progress: '▶', failed: '✖', cancelled: '–', waiting: '‖' }[status] ?? '○';
}

export function renderTree(container, tree) {
  const render = (node) => {
    if (node.children.length === 0)
      return element('li', {
        class: `node ${node.kind}`,
        'data-kind': node.kind,
        'data-type': node.observation?.type,
        text: node.label,
      });
    const details = element(
      'details',
      { open: true },
      element('summary', { text: node.label }),
      element('ul', {}, ...node.children.map(render)),
    );
    return element('li', { class: `node ${node.kind}`, 'data-kind': node.kind, 'data-id': node.id }, details);
  };
  container.replaceChildren(element('ul', { class: 'tree' }, ...tree.map(render)));
}

/** A flow's or tool's name as words: `search_flights` → `search flights`. */
export function humanize(name) {
  return String(name ?? '')
    .replace(/[_-]+/g, ' ')
    .trim();
}

/** A short line for live progress, or undefined when the line should stay as it is. */
export function describeProgress(observation) {
  const d = observation.data ?? {};
  const where = d.flow ? ` (${humanize(d.flow)})` : '';
  switch (observation.type) {
    case 'model-stream-start':
      return d.phase === 'predict' ? 'Understanding your message…' : `Thinking${where}…`;
    case 'text-delta':
      return 'Writing the reply…';
    case 'tool-call':
      return `Running ${humanize(d.toolName)}…`;
    case 'tool-execution':
      return `${humanize(d.toolName)} ${d.status === 'success' ? 'done' : 'failed'}; thinking…`;
    case 'model-stream-error':
      return `The model failed: ${d.message}`;
    case 'error':
      return `The turn failed: ${d.message}`;
    default:
      return undefined;
  }
}
