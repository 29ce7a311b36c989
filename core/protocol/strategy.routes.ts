// The plugins' locator strategies (CONTRACT section 23): POST /locator/strategy declares one for
// the registered sender, checked here (services/locators/strategies.ts: the name, one template,
// and that it is valid CSS or XPath once filled) and decided by the root, which keeps the
// registry (a name another plugin declared is StrategyTaken); GET /locator/strategy lists them.
import { fail, ok } from "../../machines/replies.ts";
import { registeredPlugins } from "../../machines/ide.selectors.ts";
import { checkDeclaration } from "../../services/locators/strategies.ts";
import type { DeclarationCheck } from "../../services/locators/strategies.ts";
import { pluginStrategies } from "../../services/plugins/index.ts";
import { anyone, noFields, route } from "./route.ts";
import type { Route } from "./route.ts";

const DECLARED_FIELDS = ["name", "css", "xpath", "attribute"] as const;

/** The declaration's own fields: others (the open request's flag, anything a plugin adds) are ignored, as on every route. */
function declarationCheck(fields: Record<string, unknown>): DeclarationCheck {
  const declared: Record<string, unknown> = {};
  for (const key of DECLARED_FIELDS) if (Object.hasOwn(fields, key) && fields[key] !== undefined) declared[key] = fields[key];
  return checkDeclaration(declared);
}

export const STRATEGY_ROUTES: ReadonlyArray<Route<unknown>> = [
  route({
    path: "/locator/strategy",
    verb: "post",
    access: { ...anyone, needsRegistration: true },
    sizeLimit: "requestBytes",
    // The check's own sentence is the InvalidRequest, so it is made here and answered by run.
    parse: declarationCheck,
    run: (scope, checked) =>
      checked.ok ? scope.dispatch({ type: "request.declareStrategy", declaration: checked.declaration }) : fail("InvalidRequest", checked.problem),
  }),
  route({
    path: "/locator/strategy",
    verb: "get",
    access: anyone,
    sizeLimit: "requestBytes",
    parse: noFields,
    run: ({ snapshot }) => ok({ strategies: pluginStrategies(registeredPlugins(snapshot)) }),
  }),
];
