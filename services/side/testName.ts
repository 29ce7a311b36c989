// The rule for a test's name, one for every place that names a test: the UI checks it in
// the page before the event goes, and the editor machine checks it again (a plugin or a
// broken page may send anything) and refuses with the same sentence. A name is trimmed,
// not empty, and not another test's.

/** What the rule needs of a test. */
export interface NamedTest {
  readonly id: string;
  readonly name: string;
}

export type CheckedTestName = { ok: true; name: string } | { ok: false; problem: string };

/** The name as it will be kept (trimmed), or why it cannot be the name of a new test or of the one with id `renaming`. */
export function checkTestName(name: string, tests: readonly NamedTest[], renaming: string | null = null): CheckedTestName {
  const trimmed = name.trim();
  if (trimmed === "") return { ok: false, problem: "A test needs a name that is not empty." };
  if (tests.some((test) => test.id !== renaming && test.name === trimmed)) {
    return { ok: false, problem: `The project already has a test named "${trimmed}"; choose another name.` };
  }
  return { ok: true, name: trimmed };
}

/** Why `name` cannot be the name of a test, or null when it can. */
export function testNameProblem(name: string, tests: readonly NamedTest[], renaming: string | null = null): string | null {
  const checked = checkTestName(name, tests, renaming);
  return checked.ok ? null : checked.problem;
}

/** The name of a copy of `name`: "NAME (copy)", else "NAME (copy 2)", "NAME (copy 3)"... the first no test has. */
export function copyName(name: string, tests: readonly NamedTest[]): string {
  const taken = new Set(tests.map((t) => t.name));
  if (!taken.has(`${name} (copy)`)) return `${name} (copy)`;
  let n = 2;
  while (taken.has(`${name} (copy ${n})`)) n += 1;
  return `${name} (copy ${n})`;
}
