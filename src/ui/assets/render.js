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
        text: thread.title ?? thread.threadId,
        'aria-current': thread.threadId === currentId ? 'true' : undefined,
        'data-thread-id': thread.threadId,
      });
      button.addEventListener('click', () => onSelect(thread.threadId));
      return element('li', {}, button);
    }),
  );
}

export function renderMessages(list, messages, pendingText) {
  const items = messages.map((message) =>
    element(
      'li',
      { class: `message ${message.role}`, 'data-role': message.role },
      element('p', { text: message.text }),
    ),
  );
  if (pendingText)
    items.push(
      element(
        'li',
        { class: 'message user pending', 'data-role': 'user' },
        element('p', { text: pendingText }),
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
        element('span', { class: 'todo-status', text: statusMark(item.status) }),
        element('span', { text: item.description }),
      ),
    ),
  );
}

function statusMark(status) {
  return { completed: '✔', in_progress: '▶', failed: '✖', cancelled: '–', waiting: '⏸' }[status] ?? '○';
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

/** A short line for live progress, or undefined when the line should be cleared. */
export function describeProgress(observation) {
  const d = observation.data ?? {};
  const where = d.flow ? ` (${d.flow})` : '';
  switch (observation.type) {
    case 'model-stream-start':
      return d.phase === 'predict' ? 'Understanding your message…' : `Thinking${where}…`;
    case 'tool-call':
      return `Running ${d.toolName}…`;
    case 'tool-execution':
      return `${d.toolName} ${d.status === 'success' ? 'done' : 'failed'}; thinking…`;
    case 'model-stream-error':
      return `The model failed: ${d.message}`;
    case 'error':
      return `The turn failed: ${d.message}`;
    default:
      return undefined;
  }
}
