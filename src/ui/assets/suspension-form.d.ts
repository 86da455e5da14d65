export interface SuspensionLike {
  kind?: string;
  toolName?: string;
  input?: unknown;
  callWords?: { title: string; arguments: { name: string; title?: string }[] };
  feedback?: { type: string; [key: string]: unknown };
}
export interface SuspensionForm {
  title: string;
  fields: unknown[];
  buttons: [value: string, label: string][];
}
export function buildSuspensionForm(suspension: SuspensionLike): SuspensionForm;
export function readAnswer(
  suspension: SuspensionLike,
  choice: string,
  form: { querySelector(selector: string): unknown } | null,
): { feedback: unknown } | { error: string };
