export interface TreeObservation {
  id: number;
  turnId: string;
  type: string;
  parentId?: string;
  data: Record<string, unknown>;
}
export interface EventTreeNode {
  kind: 'turn' | 'flow' | 'item' | 'event';
  id: string;
  label: string;
  observation?: TreeObservation;
  children: EventTreeNode[];
}
export function buildEventTree(observations: readonly TreeObservation[]): EventTreeNode[];
export function describeObservation(
  observation: TreeObservation,
  titleOf?: (id: string) => string | undefined,
): string;
