import { z } from "zod";

type Issue = z.ZodError["issues"][number];
type PathKey = PropertyKey;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `tests[0].commands[2].id`; an empty path is the value itself, called `root`. */
export function formatPath(path: ReadonlyArray<PathKey>, root = "value"): string {
  if (path.length === 0) return root;
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "symbol") out += `[${String(key)}]`;
    else if (IDENTIFIER.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

const KIND: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  bigint: "a bigint",
  object: "an object",
  record: "an object",
  array: "an array",
  tuple: "an array",
  date: "a date",
  function: "a function",
  null: "null",
  undefined: "absent",
};

function kind(expected: string): string {
  return KIND[expected] ?? `a ${expected}`;
}

function literal(value: unknown): string {
  return typeof value === "bigint" ? `${value}n` : (JSON.stringify(value) ?? String(value));
}

// Schemas word their own messages as predicates ("must be a non-empty string",
// "is duplicated: …") so they read after the path; zod's defaults never start so.
const PREDICATE = /^(must|is|has|should|cannot) /;

function predicate(issue: Issue): string {
  // Only known when the parse ran with `reportInput: true`.
  const missing = issue.code === "invalid_type" && "input" in issue && issue.input === undefined;
  if (PREDICATE.test(issue.message)) {
    return missing && issue.message.startsWith("must ") ? `is missing (it ${issue.message})` : issue.message;
  }
  switch (issue.code) {
    case "invalid_type":
      if (issue.expected === "never") return "is not allowed";
      return missing ? `is missing (it must be ${kind(issue.expected)})` : `must be ${kind(issue.expected)}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${literal(issue.values[0])}`
        : `must be one of ${issue.values.map(literal).join(", ")}`;
    case "too_small":
    case "too_big": {
      const small = issue.code === "too_small";
      const bound = literal(issue.code === "too_small" ? issue.minimum : issue.maximum);
      if (issue.origin === "string" && small && bound === "1") return "must be a non-empty string";
      if (issue.origin === "string") return `must be ${small ? "at least" : "at most"} ${bound} characters long`;
      if (issue.origin === "array" || issue.origin === "set") {
        return `must have ${small ? "at least" : "at most"} ${bound} items`;
      }
      const strict = issue.inclusive === false;
      return `must be ${small ? (strict ? "more than" : "at least") : strict ? "less than" : "at most"} ${bound}`;
    }
    case "invalid_format":
      return `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${literal(issue.divisor)}`;
    case "unrecognized_keys":
      return `has unknown ${issue.keys.length === 1 ? "field" : "fields"} ${issue.keys.map(literal).join(", ")}`;
    case "invalid_union":
      return "does not match any accepted form";
    case "invalid_key":
      return "has an invalid key";
    case "invalid_element":
      return "has an invalid element";
    default:
      return `is invalid: ${issue.message}`;
  }
}

/**
 * The first issue of `error` as a sentence for a person, naming the field path:
 * `commands[1].id is duplicated: "x"`. `root` names the value itself, used when
 * the issue is about the whole value (`project must be an object`).
 */
export function describeZodIssue(error: z.ZodError, root = "value"): string {
  const issue = error.issues[0];
  if (issue === undefined) return `${root} is invalid`;
  return `${formatPath(issue.path, root)} ${predicate(issue)}`;
}

// The pieces the door's schemas share (a project's, a registration's).

/** An id or a name something is found by: a string, and not "" (keys must be usable). */
export const nonEmptyString = z.string({ error: "must be a non-empty string" }).min(1, { error: "must be a non-empty string" });

/** An issue at `field[index].id` for every item whose `id` an earlier item already has. */
export function refuseDuplicateIds(items: ReadonlyArray<{ id: string }>, field: string, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.id)) {
      ctx.addIssue({ code: "custom", path: [field, index, "id"], message: `is duplicated: ${JSON.stringify(item.id)}` });
    }
    seen.add(item.id);
  });
}
