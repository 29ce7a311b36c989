// The routes table (CONTRACT sections 4, 11, 12 and 13): uri + verb → access rules → fields
// (zod) → what runs. A route either answers from the IDE's current state, writes a log entry,
// or turns into an event for the root machine; which one is visible in its `run`. The
// displayed test's routes (section 13) are in record.routes.ts, the plugins' locator strategies
// (section 23) in strategy.routes.ts; the kit they share, route.ts.
import { z } from "zod";
import { COMMAND_STATES } from "../../services/playback/commandTable.ts";
import { parseContents } from "../../services/playback/variables.ts";
import { parseRegistration } from "../../services/plugins/index.ts";
import { parseSideProject } from "../../services/side/index.ts";
import type { RouteAccess } from "../../machines/ide.rules.ts";
import { loadedProject, senderIsRegistered, strategyTableOf } from "../../machines/ide.selectors.ts";
import { expandLocator } from "../../services/locators/strategies.ts";
import { fail, ok } from "../../machines/replies.ts";
import type { Reply } from "../../machines/shared.types.ts";
import type { LogGroup } from "../../services/logs/index.ts";
import type { Verb } from "./envelope.ts";
import { RECORD_ROUTES } from "./record.routes.ts";
import { STRATEGY_ROUTES } from "./strategy.routes.ts";
import { anyone, controlledOnly, fieldsOf, noFields, route } from "./route.ts";
import type { Route } from "./route.ts";

export type { Route, RouteScope } from "./route.ts";

const logFields = fieldsOf(
  z.object({
    type: z.enum(["error", "warn"]).nullable().optional(),
    message: z.string(),
  }),
);

const varFields = fieldsOf(
  z.object({
    name: z.string().min(1),
    contents: z.unknown().refine((c) => c !== undefined, "is missing (it must be JSON text, a number, a boolean or null)"),
  }),
);

const SELECTOR_KEYS = ["testId", "testName", "suiteId", "suiteName"] as const;
const startFields = fieldsOf(
  z
    .object({
      testId: z.string().optional(),
      testName: z.string().optional(),
      suiteId: z.string().optional(),
      suiteName: z.string().optional(),
    })
    .refine((f) => SELECTOR_KEYS.filter((k) => f[k] !== undefined).length <= 1, {
      message: "must name at most one of testId, testName, suiteId and suiteName",
    }),
);

const registrationFields = (fields: Record<string, unknown>) => {
  const result = parseRegistration(fields);
  return result.ok ? result.registration : result.problem;
};

/** POST /log and POST /playback/log: the same fields, each to its own group. */
const logRoute = (path: string, group: LogGroup, access: RouteAccess) =>
  route({
    path,
    verb: "post",
    access,
    sizeLimit: "requestBytes",
    boundedField: "message",
    parse: logFields,
    run: (scope, { type, message }) => {
      scope.writeLog(group, type, message);
      return ok(true);
    },
  });

export const ROUTES: ReadonlyArray<Route<unknown>> = [
  route({
    path: "/health",
    verb: "get",
    access: anyone,
    sizeLimit: "requestBytes",
    parse: noFields,
    run: ({ snapshot, sender }) => ok(senderIsRegistered(snapshot, sender)),
  }),
  route({
    path: "/register",
    verb: "post",
    access: controlledOnly,
    sizeLimit: "requestBytes",
    parse: registrationFields,
    run: (scope, registration) => scope.dispatch({ type: "request.register", registration }),
  }),
  logRoute("/log", "system", controlledOnly),
  route({
    path: "/project",
    verb: "get",
    access: controlledOnly,
    sizeLimit: "requestBytes",
    parse: noFields,
    run: ({ snapshot }) => {
      const { id, name } = loadedProject(snapshot);
      return ok({ id, name });
    },
  }),
  route({
    path: "/project",
    verb: "post",
    access: { ...controlledOnly, needsRegistration: true },
    sizeLimit: "projectRequestBytes",
    parse: fieldsOf(z.object({ project: z.unknown().refine((p) => p !== undefined, "is missing (it must be a .side project)") })),
    run: (scope, { project }) => {
      const parsed = parseSideProject(project);
      if (!parsed.ok) return fail("InvalidProject", `The project is not a usable .side project: ${parsed.problem}.`);
      return scope.dispatch({ type: "request.loadProject", project: parsed.project });
    },
  }),
  route({
    path: "/control",
    verb: "post",
    access: { controlledOnly: false, needsRegistration: false, opensWindow: true },
    sizeLimit: "requestBytes",
    parse: registrationFields,
    run: (scope, registration) => scope.dispatch({ type: "request.control", registration }),
  }),
  route({
    path: "/close",
    verb: "post",
    access: controlledOnly,
    sizeLimit: "requestBytes",
    parse: noFields,
    run: (scope) => scope.dispatch({ type: "request.close" }),
  }),
  route({
    path: "/playback/location",
    verb: "get",
    access: anyone,
    sizeLimit: "requestBytes",
    parse: fieldsOf(z.object({ location: z.string() })),
    // A declared `NAME=VALUE` reaches the page as the css= or xpath= it stands for (CONTRACT section 23).
    run: (scope, { location }) => scope.resolveLocator(expandLocator(location, strategyTableOf(scope.snapshot))),
  }),
  route({
    path: "/playback/command",
    verb: "post",
    access: anyone,
    sizeLimit: "requestBytes",
    boundedField: "message",
    parse: fieldsOf(
      z.object({
        commandId: z.string(),
        state: z.enum(COMMAND_STATES),
        message: z.string().nullable().optional(),
      }),
    ),
    run: (scope, { commandId, state, message }) =>
      scope.dispatch({ type: "request.commandState", commandId, state, message: message ?? null }),
  }),
  logRoute("/playback/log", "playback", anyone),
  route({
    path: "/playback/var",
    verb: "put",
    access: { ...anyone, needsRegistration: true },
    sizeLimit: "requestBytes",
    parse: (fields) => {
      const parsed = varFields(fields);
      if (typeof parsed === "string") return parsed;
      const contents = parseContents(parsed.contents);
      return contents.ok ? { name: parsed.name, value: contents.value } : contents.problem;
    },
    run: (scope, { name, value }) => scope.dispatch({ type: "request.setVariable", name, value }),
  }),
  route({
    path: "/playback/start",
    verb: "post",
    access: { ...controlledOnly, needsRegistration: true },
    sizeLimit: "requestBytes",
    parse: startFields,
    run: (scope, selector) => scope.dispatch({ type: "request.startRun", selector }),
  }),
  route({
    path: "/playback/stop",
    verb: "post",
    access: { ...controlledOnly, needsRegistration: true },
    sizeLimit: "requestBytes",
    parse: noFields,
    run: (scope) => scope.dispatch({ type: "request.stopRun" }),
  }),
  ...RECORD_ROUTES,
  ...STRATEGY_ROUTES,
];

/** uri (lower case, no /v1) → verb → route. */
const TABLE = new Map<string, Map<Verb, Route<unknown>>>();
for (const r of ROUTES) {
  if (!TABLE.has(r.path)) TABLE.set(r.path, new Map());
  TABLE.get(r.path)!.set(r.verb, r);
}

export type RouteMatch = { ok: true; route: Route<unknown> } | { ok: false; reply: Reply };

export function matchRoute(uri: string, verb: Verb): RouteMatch {
  let path = uri.toLowerCase();
  if (path.startsWith("/v1/")) path = path.slice(3);
  const verbs = TABLE.get(path);
  if (!verbs) return { ok: false, reply: fail("NoRoute", `There is no route ${JSON.stringify(uri)}.`) };
  const found = verbs.get(verb);
  if (!found) {
    const allowed = [...verbs.keys()].map((v) => v.toUpperCase()).join(", ");
    return {
      ok: false,
      reply: fail("VerbNotAllowed", `${path} does not take ${verb.toUpperCase()}; it takes ${allowed}.`),
    };
  }
  return { ok: true, route: found };
}
