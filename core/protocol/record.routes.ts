// The displayed test's routes and the plugin's other section-13 routes (CONTRACT section 13):
// read and edit the test the user is looking at, ask the tab under test, ask the user, and
// turn a locator into code. Edits and the alert are events the machines decide (the project
// machine: NoTestSelected, UnknownCommand, Busy while the test is played; the root: the
// alert dialog); reading the test and exporting a locator answer here from the state (with a
// `language`, as that language's code-export package writes it).
import { z } from "zod";
import { displayedTestOf, strategyTableOf } from "../../machines/ide.selectors.ts";
import { NO_TEST } from "../../machines/editor.edits.ts";
import { fail, ok, recordRouteRefusal } from "../../machines/replies.ts";
import { messageOf } from "../../services/errors.ts";
import { EXPORT_LANGUAGES, locatorIn } from "../../services/export/index.ts";
import { expandLocator, isLocatorErrorCode, locatorAsBy, parseLocator } from "../../services/locators/index.ts";
import { nonEmptyString } from "../../services/validation.ts";
import { anyone, controlledOnly, fieldsOf, noFields, route } from "./route.ts";
import type { Route } from "./route.ts";

const editing = { ...controlledOnly, needsRegistration: true };

/** `targets` as in the .side file: [locator, strategy] pairs. */
const targets = z.array(z.tuple([z.string(), z.string()]));

const addFields = fieldsOf(
  z.object({
    command: nonEmptyString,
    target: z.string().optional(),
    value: z.string().optional(),
    index: z.number().int().min(0).optional(),
    select: z.boolean().optional(),
  }),
);

const changeFields = fieldsOf(
  z.object({
    id: nonEmptyString,
    command: nonEmptyString.optional(),
    target: z.string().optional(),
    value: z.string().optional(),
    targets: targets.optional(),
  }),
);

// A label given as null counts as none, as a log's `type: null` does.
const label = nonEmptyString.nullish().transform((given) => given ?? undefined);

const alertFields = fieldsOf(
  z.object({
    message: z.string(),
    confirm: label,
    cancel: label,
  }),
);

const exportFields = fieldsOf(
  z.object({
    location: z.string(),
    language: z.enum(EXPORT_LANGUAGES, { error: `must be one of ${EXPORT_LANGUAGES.join(", ")}` }).optional(),
  }),
);

export const RECORD_ROUTES: ReadonlyArray<Route<unknown>> = [
  route({
    path: "/record/command",
    verb: "get",
    access: controlledOnly,
    sizeLimit: "requestBytes",
    parse: noFields,
    run: ({ snapshot }) => {
      const test = displayedTestOf(snapshot);
      return test ? ok({ commands: test.commands }) : recordRouteRefusal("NoTestSelected", NO_TEST);
    },
  }),
  route({
    path: "/record/command",
    verb: "post",
    access: editing,
    sizeLimit: "requestBytes",
    parse: addFields,
    run: (scope, fields) => scope.dispatch({ type: "request.addCommand", ...fields }),
  }),
  route({
    path: "/record/command",
    verb: "put",
    access: editing,
    sizeLimit: "requestBytes",
    parse: changeFields,
    run: (scope, fields) => scope.dispatch({ type: "request.changeCommand", ...fields }),
  }),
  route({
    path: "/record/command",
    verb: "delete",
    access: editing,
    sizeLimit: "requestBytes",
    parse: fieldsOf(z.object({ id: nonEmptyString })),
    run: (scope, { id }) => scope.dispatch({ type: "request.deleteCommand", id }),
  }),
  route({
    path: "/record/tab",
    verb: "get",
    access: anyone,
    sizeLimit: "requestBytes",
    parse: noFields,
    run: (scope) => scope.tabUnderTest(),
  }),
  route({
    path: "/popup/alert",
    verb: "post",
    access: { ...anyone, needsRegistration: true },
    sizeLimit: "requestBytes",
    boundedField: "message",
    parse: alertFields,
    run: (scope, fields) => scope.dispatch({ type: "request.alert", ...fields }),
  }),
  route({
    path: "/export/location",
    verb: "get",
    access: anyone,
    sizeLimit: "requestBytes",
    parse: exportFields,
    // Checked as every locator is (InvalidLocator), then written by that language's package;
    // a declared strategy's locator as the By of its filled template (section 23).
    run: async ({ snapshot }, { location, language }) => {
      try {
        const table = strategyTableOf(snapshot);
        if (language === undefined) return ok(locatorAsBy(location, table));
        parseLocator(expandLocator(location, table));
        return ok(await locatorIn(language, location, table));
      } catch (error) {
        const code = (error as { errorCode?: unknown }).errorCode;
        return fail(isLocatorErrorCode(code) ? code : "InvalidLocator", messageOf(error));
      }
    },
  }),
];
