import type { z } from 'zod';

const shownIssues = 20;

/** One line per schema issue (`stack.0.status: …`), at most 20, so that an error message stays readable. */
export function describeSchemaIssues(issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues
    .slice(0, shownIssues)
    .map((issue) => `- ${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
  if (issues.length > shownIssues) lines.push(`- … and ${issues.length - shownIssues} more`);
  return lines.join('\n');
}
