// The one place that knows how Selenium's code-export packages (4.0.13) behave inside.
// Each export gets a language emitter of its own, built from the package's options with:
// - hooks of its own: the packages keep hook and command registrations in module globals
//   with no way to remove one, so a plugin's code registered there would stay for every
//   later export (and csharp-nunit and csharp-xunit share one command registry, where a
//   second registration throws). Nothing is ever registered in the packages here;
// - a command emitter that gives a plugin's command its plugin's code (the packages would
//   refuse it as "Invalid command" unless it were also added to side-model's global
//   command list), refuses a command the package has no emitter for with the packages' own
//   "Invalid command" (their emitter crashes on it instead), and lays each test's lines
//   out as layout.ts says;
// - an `echo` of text with variables among other words written as the package's own
//   expressions joined by `+` (4.0.13 puts a variable lookup inside the string's quotes);
// - a `css=A >>> B` locator written as Selenium 4's getShadowRoot() chain (shadow.ts);
// - a variable in a parameter written as the language's lookup, not inside the string
//   literal 4.0.13 writes around it (variables.ts);
// - a declared locator strategy's `NAME=VALUE` written as the css= or xpath= it stands for
//   (declaredLocators.ts), before any of the above sees the command;
// - `loadVars` … `endLoadVars` written as a loop over the data file's rows, with the helpers
//   it calls added to the file's dependencies and methods (dataLoops.ts).
import * as sideCodeExport from "side-code-export";
import type {
  EmitterContext,
  ExportFlexCommandShape,
  LanguageEmitter,
  LanguageEmitterOpts,
  LanguageHooks,
} from "side-code-export";
import type { CommandShape } from "@seleniumhq/side-model";
import { placeAll, relativeTexts } from "./layout.ts";
import type { PlacedLine } from "./layout.ts";
import { DATA_COMMANDS, dataCommand, dataDepths, dataHelpers, usesData } from "./dataLoops.ts";
import type { DataOptions } from "./dataLoops.ts";
import type { ExportLanguage } from "./languages.ts";
import { withShadowChains } from "./shadow.ts";
import { withDeclaredLocators } from "./declaredLocators.ts";
import type { StrategyTable } from "../locators/templates.ts";
import { withLookups, withPlaceholders } from "./variables.ts";
import type { CommandEmitter } from "./variables.ts";

/** The hooks a plugin can add code to, by the names of v3's export messages. */
export const PLUGIN_HOOKS = [
  "dependency",
  "variable",
  "beforeAll",
  "beforeEach",
  "inEachBegin",
  "inEachEnd",
  "afterEach",
  "afterAll",
] as const;
export type PluginHook = (typeof PLUGIN_HOOKS)[number];

const HOOK_KEYS: Record<PluginHook, keyof LanguageHooks> = {
  dependency: "declareDependencies",
  variable: "declareVariables",
  beforeAll: "beforeAll",
  beforeEach: "beforeEach",
  inEachBegin: "inEachBegin",
  inEachEnd: "inEachEnd",
  afterEach: "afterEach",
  afterAll: "afterAll",
};

// Where the packages put each hook's output (emit.ts: suite level 0, test level 1,
// command level 2): a hook's lines are given to them at these absolute levels.
const HOOK_LEVELS: Record<keyof LanguageHooks, number> = {
  declareDependencies: 0,
  declareVariables: 1,
  beforeAll: 1,
  beforeEach: 1,
  afterEach: 1,
  afterAll: 1,
  declareMethods: 1,
  inEachBegin: 2,
  inEachEnd: 2,
};

// 4.0.13's echo puts a variable lookup inside the string's quotes when the text has other
// words beside it; python-pytest formats the first variable right and leaves the others.
const ECHO_IS_BROKEN: Record<ExportLanguage, (text: string) => boolean> = {
  "csharp-nunit": mixesVariables,
  "csharp-xunit": mixesVariables,
  "java-junit": mixesVariables,
  "javascript-mocha": mixesVariables,
  "ruby-rspec": mixesVariables,
  "python-pytest": (text) => (text.match(/\$\{[^}]+\}/g) ?? []).length > 1,
};

/** What plugins wrote for one export: code per command (null: none), lines per hook. */
export interface PluginCode {
  commands: ReadonlyMap<CommandShape, string | null>;
  hooks: Partial<Record<PluginHook, string[]>>;
}

// CommonJS: Node gives its named exports under `default`, bundlers give them directly.
type SideCodeExport = typeof sideCodeExport;
const library: SideCodeExport =
  "codeExport" in sideCodeExport ? sideCodeExport : (sideCodeExport as unknown as { default: SideCodeExport }).default;
const { codeExport, languageFromOpts } = library;
export const { findReusedTestMethods } = library;

type Hook = InstanceType<typeof codeExport.hook>;

/**
 * A language emitter for one export: the package's own options and emitters, with hooks
 * and command lists of its own. `lists` are the command lists the export will emit (each
 * exported test's and each reused test's commands). `strategies`: the declared locator
 * strategies the commands' locators may use.
 */
export function isolatedLanguage(
  language: ExportLanguage,
  base: LanguageEmitter,
  lists: ReadonlyArray<ReadonlyArray<CommandShape>>,
  plugins: PluginCode,
  data: DataOptions = {},
  strategies: StrategyTable = new Map(),
): LanguageEmitter {
  const opts = base.opts;
  const padding = opts.commandPrefixPadding;
  const hooks = isolatedHooks(opts.hooks, plugins);
  if (usesData(lists)) {
    const helpers = dataHelpers(language, data);
    if (helpers.dependencies.length) hooks.declareDependencies.register(() => ({ commands: helpers.dependencies }));
    hooks.declareMethods.register(() => ({ commands: helpers.methods }));
  }
  const where = new Map<CommandShape, { list: ReadonlyArray<CommandShape>; index: number }>();
  for (const list of lists) list.forEach((command, index) => where.set(command, { list, index }));
  const laidOut = new Map<ReadonlyArray<CommandShape>, Promise<string[]>>();

  const emitOne = (command: CommandShape, context: EmitterContext): Promise<ExportFlexCommandShape> => {
    if (plugins.commands.has(command)) return Promise.resolve(plugins.commands.get(command) ?? "");
    if (command.command.startsWith("//")) return Promise.resolve(""); // a disabled command: no code
    if (DATA_COMMANDS.has(command.command)) {
      const place = where.get(command);
      return Promise.resolve().then(() => dataCommand(language, command, place ? (dataDepths(place.list).get(place.index) ?? 1) : 1));
    }
    if (!Object.hasOwn(opts.emitter.emitters, command.command)) {
      return Promise.reject(new Error(`Invalid command '${command.command}'`));
    }
    try {
      const place = where.get(command);
      command = withDeclaredLocators(command, strategies, place ? `Command ${place.index + 1}` : "A command");
    } catch (error) {
      return Promise.reject(error);
    }
    if (command.command === "echo" && ECHO_IS_BROKEN[language](command.target ?? "")) {
      return echoConcatenated(command, context, opts);
    }
    const own = (shape: CommandShape) =>
      Promise.resolve(opts.emitter.emit(shape, context)).then((code) => withShadowChains(language, shape, code, base.emit.locator));
    // An echo's variables are the echo's own business above: where it is not broken, the package's is right.
    const swapped = command.command === "echo" ? null : withPlaceholders(command, opts.emitter.emitters[command.command] as CommandEmitter);
    if (!swapped) return own(command);
    return own(swapped.command).then(
      (code) => withLookups(language, code, swapped.names) ?? own(command),
      () => own(command),
    );
  };

  function layOut(list: ReadonlyArray<CommandShape>, context: EmitterContext): Promise<string[]> {
    let lines = laidOut.get(list);
    if (!lines) {
      lines = Promise.all(list.map((command) => emitOne(command, context))).then((emitted) => relativeTexts(emitted, padding));
      laidOut.set(list, lines);
    }
    return lines;
  }

  const emitter: LanguageEmitterOpts["emitter"] = {
    ...opts.emitter,
    async emit(command, context) {
      const place = where.get(command);
      if (!place) return emitOne(command, context);
      return (await layOut(place.list, context))[place.index];
    },
  };
  return languageFromOpts({ ...opts, emitter, hooks }, base.emit.locator);
}

// New Hook objects with the package's own starting and ending syntax and its own
// registered emitters, then the plugins' lines; their output is placed at absolute levels.
function isolatedHooks(own: LanguageHooks, plugins: PluginCode): LanguageHooks {
  const hooks = {} as LanguageHooks;
  for (const key of Object.keys(own) as Array<keyof LanguageHooks>) {
    const original = own[key];
    const hook: Hook = new codeExport.hook({
      startingSyntax: original.startingSyntax,
      endingSyntax: original.endingSyntax,
      registrationLevel: original.registrationLevel,
    });
    for (const emitter of original.emitters) hook.register(emitter);
    const emitRelative = hook.emit;
    hook.emit = async (options) => {
      const emitted = await emitRelative(options);
      if (typeof emitted === "string" || "statement" in emitted || emitted.commands.length === 0) return emitted;
      const [lines] = placeAll([emitted]);
      return { commands: absolute(lines, HOOK_LEVELS[key]) };
    };
    hooks[key] = hook;
  }
  for (const name of PLUGIN_HOOKS) {
    for (const code of plugins.hooks[name] ?? []) hooks[HOOK_KEYS[name]].register(() => code);
  }
  return hooks;
}

// A blank line stays blank (no trailing spaces).
function absolute(lines: ReadonlyArray<PlacedLine>, base: number) {
  return lines.map(({ level, text }) => ({ level: text.trim() === "" ? 0 : base + level, statement: text.trim() === "" ? "" : text }));
}

// `${a}` alone is a lookup the packages write well; `${a}` among other text is not.
function mixesVariables(text: string): boolean {
  return /\$\{[^}]+\}/.test(text) && !/^\$\{[^}]+\}$/.test(text);
}

// The package's echo of each piece (a literal or one variable), with the call around them
// taken from its echo of a one-character literal (the call, a quote, the text, a quote) and
// their arguments joined by `+`. Anything unexpected gives the package's own line.
async function echoConcatenated(
  command: CommandShape,
  context: EmitterContext,
  opts: LanguageEmitterOpts,
): Promise<ExportFlexCommandShape> {
  const own = () => opts.emitter.emit(command, context);
  const literal = await opts.emitter.emit({ ...command, target: "." }, context);
  const dot = typeof literal === "string" ? literal.lastIndexOf(".") : -1;
  if (typeof literal !== "string" || dot < 1) return own();
  const prefix = literal.slice(0, dot - 1);
  const suffix = literal.slice(dot + 2);
  const args: string[] = [];
  for (const piece of (command.target ?? "").split(/(\$\{[^}]+\})/).filter((text) => text !== "")) {
    const code = await opts.emitter.emit({ ...command, target: piece }, context);
    if (typeof code !== "string" || !code.startsWith(prefix) || !code.endsWith(suffix)) return own();
    args.push(code.slice(prefix.length, code.length - suffix.length));
  }
  return `${prefix}${args.join(" + ")}${suffix}`;
}
