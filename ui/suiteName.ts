// The page's check of a suite's name before it goes (CONTRACT section 20: names are unique and
// not empty); the editor checks again and refuses with a warning, so this only says it sooner.

/** Why `name` cannot name a new suite, or the one with id `renaming`; null when it can. */
export function suiteNameProblem(name: string, suites: ReadonlyArray<{ id: string; name: string }>, renaming: string | null = null): string | null {
  const trimmed = name.trim();
  if (trimmed === "") return "A suite needs a name that is not empty.";
  if (suites.some((suite) => suite.id !== renaming && suite.name === trimmed)) return `The project already has a suite named "${trimmed}"; choose another name.`;
  return null;
}
