// The TodoList as the observations tell it (seed 002): `plan` sets the items, `plan-update` applies
// added / modified / removed, `item-status-change` moves one item. Pure: state and observation in,
// next state out; `undefined` until a plan exists.

export function reducePlan(state, observation) {
  const d = observation.data ?? {};
  if (observation.type === 'plan' && Array.isArray(d.items)) {
    return {
      planId: String(d.planId ?? ''),
      title: typeof d.title === 'string' ? d.title : undefined,
      items: d.items.map(toItem),
    };
  }
  if (!state) return state;
  if (observation.type === 'plan-update') {
    if (Array.isArray(d.items)) return { ...state, items: d.items.map(toItem) };
    const changes = d.changes ?? {};
    const removed = new Set((changes.removed ?? []).map((item) => item.id));
    const modified = new Map(
      (changes.modified ?? []).map((m) => [m.after?.id ?? m.before?.id, toItem(m.after ?? m.before)]),
    );
    const items = state.items
      .filter((item) => !removed.has(item.id))
      .map((item) => modified.get(item.id) ?? item);
    return { ...state, items: [...items, ...(changes.added ?? []).map(toItem)] };
  }
  if (observation.type === 'item-status-change' && typeof d.itemId === 'string') {
    return {
      ...state,
      items: state.items.map((item) =>
        item.id === d.itemId ? { ...item, status: String(d.to ?? d.status) } : item,
      ),
    };
  }
  return state;
}

function toItem(item) {
  return {
    id: String(item.id),
    description: String(item.description ?? ''),
    status: String(item.status ?? 'pending'),
  };
}
