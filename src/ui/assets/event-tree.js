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
        known.set(flowId, { kind: 'flow', label: `Flow ${String(observation.data.flow)}` });
      // A flow started for a plan item carries the item's id in `planItemId`.
      const itemId =
        typeof observation.data.planItemId === 'string' ? observation.data.planItemId : undefined;
      const node = containerIn(turn, flowId, known, itemId ? containerIn(turn, itemId, known) : undefined);
      node.children.push(eventNode(observation));
      continue;
    }
    const parent = (observation.parentId && containerIn(turn, observation.parentId, known)) || turn;
    parent.children.push(eventNode(observation));
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
    known.set(item.id, { kind: 'item', label: `Step ${item.id}: ${String(item.description ?? '')}` });
    containerIn(turn, item.id, known, parent === turn ? undefined : parent);
  }
}

function eventNode(observation) {
  return {
    kind: 'event',
    id: String(observation.id),
    label: describeObservation(observation),
    observation,
    children: [],
  };
}

/** One line saying what an observation is. */
export function describeObservation(observation) {
  const d = observation.data ?? {};
  switch (observation.type) {
    case 'intent':
      return `intent → ${String(d.flow)} (${String(d.source)})`;
    case 'flow-push':
      return `push ${String(d.flow)}`;
    case 'flow-pop':
      return `pop ${String(d.flow)} (${String(d.status)})`;
    case 'tool-call':
      return `call ${String(d.toolName)}`;
    case 'tool-execution':
      return `${String(d.toolName)} → ${String(d.status)}`;
    case 'clarification':
      return `asks: ${String(d.question)}`;
    case 'suspended': {
      const waiting = Array.isArray(d.suspensions) ? d.suspensions : [d];
      return `waits for ${waiting.map((s) => `${String(s.kind ?? 'approval')} of ${String(s.toolName)}`).join(', ')}`;
    }
    case 'resumed':
      return `resumed (${String(d.decision ?? 'answered')})`;
    case 'file-rollback':
      return `rolled back ${[...(Array.isArray(d.restored) ? d.restored : []), ...(Array.isArray(d.removed) ? d.removed : [])].join(', ')}`;
    case 'final-response':
      return `answer (${String(d.status)})`;
    case 'item-status-change':
      return `step ${String(d.itemId)} → ${String(d.to ?? d.status)}`;
    case 'plan':
      return `plan with ${Array.isArray(d.items) ? d.items.length : 0} steps`;
    case 'plan-update':
      return 'plan changed';
    case 'thoughts':
      return `thinks: ${String(d.text).slice(0, 80)}`;
    case 'error':
      return `error in ${String(d.phase)}: ${String(d.message ?? (Array.isArray(d.problems) ? d.problems.join(' ') : ''))}`;
    default:
      return observation.type;
  }
}
