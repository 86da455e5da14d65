export interface PlanItemView {
  id: string;
  description: string;
  status: string;
}
export interface PlanView {
  planId: string;
  title?: string;
  items: PlanItemView[];
}
export function reducePlan(
  state: PlanView | undefined,
  observation: { type: string; data: Record<string, unknown> },
): PlanView | undefined;
