// The event tree of a thread (seed 002's hierarchical ids): turns at the top; in a turn, each flow
// (its `flow-push`) and each plan item holds the observations whose `parentId` names it, and a
// flow started for a plan item sits under that item. Pure: observations in, tree out.

/**
 * @param {Array<{ id: number, turnId: string, type: string, parentId?: string, data: Record<string, unknown> }>} observations
 */
export function buildEventTree(observations) {
  const turns = [];
  const turnsById = new Map();
  // What each flow or plan item id is called, from whichever turn first showed it.
  const known = new Map();
  for (const observation of observations) {
    let turn = turnsById.get(observation.turnId);
    if (!turn) {
      turn = {
        kind: 'turn',
        id: observation.turnId,
        label: `Turn ${turns.length + 1}`,
        children: [],
        containers: new Map(),
      };
      turns.push(turn);
      turnsById.set(observation.turnId, turn);
    }
    if (observation.type === 'flow-push' && typeof observation.data.flowId === 'string') {
      const flowId = observation.data.flowId;
      if (!known.has(flowId))
        known.set(flowId, { kind: 'flow', label: capitalize(humanName(observation.data.flow)) });
      // A flow started for a plan item carries the item's id in `planItemId`.
      const itemId =
        typeof observation.data.planItemId === 'string' ? observation.data.planItemId : undefined;
      const node = containerIn(turn, flowId, known, itemId ? containerIn(turn, itemId, known) : undefined);
      node.children.push(eventNode(observation, known));
      continue;
    }
    const parent = (observation.parentId && containerIn(turn, observation.parentId, known)) || turn;
    parent.children.push(eventNode(observation, known));
    if (observation.type === 'plan' || observation.type === 'plan-update')
      addPlanItems(observation, turn, parent, known);
  }
  return turns.map(strip);
}

/**
 * The node of a flow or plan item in this turn; a flow or item first seen in an earlier turn gets a
 * node here too, so every turn holds only its own events.
 */
function containerIn(turn, id, known, under) {
  const existing = turn.containers.get(id);
  if (existing) return existing;
  const about = known.get(id);
  if (!about) return undefined;
  const node = { kind: about.kind, id, label: about.label, children: [] };
  turn.containers.set(id, node);
  (under ?? turn).children.push(node);
  return node;
}

function strip(node) {
  const { containers: _containers, ...rest } = node;
  return rest;
}

function addPlanItems(observation, turn, parent, known) {
  const items = Array.isArray(observation.data.items)
    ? observation.data.items
    : Array.isArray(observation.data.changes?.added)
      ? observation.data.changes.added
      : [];
  for (const item of items) {
    if (!item || typeof item.id !== 'string' || known.has(item.id)) continue;
    known.set(item.id, { kind: 'item', label: `Step: ${String(item.description ?? item.id)}` });
    containerIn(turn, item.id, known, parent === turn ? undefined : parent);
  }
}

function eventNode(observation, known) {
  return {
    kind: 'event',
    id: String(observation.id),
    label: describeObservation(observation, (id) => known.get(id)?.label),
    observation,
    children: [],
  };
}

/** A flow's or tool's name in words: `search_flights` → `search flights`. */
function humanName(name) {
  return String(name ?? '')
    .replace(/[_-]+/g, ' ')
    .trim();
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** How the agent chose what to do, in words. */
const routedBy = {
  'fast-path': 'a rule',
  model: 'the model',
  answer: 'your answer',
  declared: 'the flow’s fallback',
};

/** How a tool call ended, in words. */
const callOutcomes = {
  success: 'succeeded',
  error: 'failed',
  suspended: 'waits for you',
  cancelled: 'was stopped',
};

/** What a built-in answer (no flow of its own) was. */
const builtIns = {
  confirm: 'took your answer to its question',
  cancel: 'stopped what it was doing',
  help: 'explained what it can do',
  chitchat: 'replied without a task',
};

/**
 * One line saying what an observation is, in words a user reads: flows and tools by name, plan items
 * by their description (`titleOf(id)`), never by ids.
 */
export function describeObservation(observation, titleOf = () => undefined) {
  const d = observation.data ?? {};
  const flow = humanName(d.flow);
  const tool = humanName(d.toolName);
  switch (observation.type) {
    case 'intent': {
      const by = routedBy[String(d.source)] ? ` (by ${routedBy[String(d.source)]})` : '';
      if (typeof d.builtIn === 'string')
        return `${capitalize(builtIns[d.builtIn] ?? 'answered directly')}${by}`;
      if (!d.flow || d.flow === 'none') return `No task to start${by}`;
      return `Chose ${flow}${by}`;
    }
    case 'flow-push':
      return `Started ${flow}`;
    case 'flow-pop':
      return `Ended ${flow} (${String(d.status)})`;
    case 'tool-call':
      return `Called ${tool}`;
    case 'tool-execution':
      return `${capitalize(tool)} ${callOutcomes[String(d.status)] ?? String(d.status)}`;
    case 'clarification':
      return `Asked: ${String(d.question)}`;
    case 'suspended': {
      const waiting = Array.isArray(d.suspensions) ? d.suspensions : [d];
      return `Waits for your ${waiting.map((s) => `${String(s.kind ?? 'approval')} of ${humanName(s.toolName)}`).join(', ')}`;
    }
    case 'resumed':
      return `Went on after your answer (${String(d.decision ?? 'answered')})`;
    case 'file-rollback':
      return `Rolled back ${[...(Array.isArray(d.restored) ? d.restored : []), ...(Array.isArray(d.removed) ? d.removed : [])].join(', ')}`;
    case 'final-response':
      return `Replied (${String(d.status).replace('-', ' ')})`;
    case 'item-status-change': {
      const title = titleOf(String(d.itemId))?.replace(/^Step: /, '') ?? 'a step';
      return `${capitalize(title)} → ${String(d.to ?? d.status).replace('_', ' ')}`;
    }
    case 'plan':
      return `Planned ${Array.isArray(d.items) ? d.items.length : 0} steps`;
    case 'plan-update':
      return 'Changed the plan';
    case 'thoughts':
      return `Thought: ${String(d.text).slice(0, 80)}`;
    case 'synthesis':
      return 'Wrote the answer from the steps';
    case 'error':
      return `Error in ${String(d.phase)}: ${String(d.message ?? (Array.isArray(d.problems) ? d.problems.join(' ') : ''))}`;
    default:
      return observation.type.replace(/-/g, ' ');
  }
}
