// The rules for a test's name, checked in the page before the event goes (the IDE checks
// them again and says why it refused in the log): trimmed, not empty, not another test's.
import type { TestSummary } from "./protocol.ts";

/** Why `name` cannot be the name of a test (the new one, or the one with id `renaming`), or null when it can. */
export function testNameProblem(name: string, tests: readonly TestSummary[], renaming: string | null = null): string | null {
  const trimmed = name.trim();
  if (trimmed === "") return "A test needs a name.";
  const other = tests.find((test) => test.name === trimmed && test.id !== renaming);
  return other ? `There is a test named "${trimmed}" already.` : null;
}
