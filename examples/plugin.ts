// The example plugin (`npm run example:plugin`): a plugin author's first working plugin,
// written against the typed client only. It does, in order and out loud, what real plugins
// do: keeps itself registered, logs to both groups, reads the project, declares a locator
// strategy (`sku=VALUE`), resolves locators and turns one into code, answers the IDE's events, puts a variable when a run starts, executes its
// own command (`exampleCheck`) when a run reaches it, asks for control, and then asks the user
// (an alert) whether to insert an `exampleCheck` into the test they are looking at, as a
// visual-check plugin's recorder inserts its "check window" command. `runExamplePlugin` is
// exported so the tests drive the very same steps.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { connectPlugin, isErrorReply } from "../client/index.ts";
import type { CommandAnswer, CommandToExecute, ErrorReply, LocatorStrategy, PluginClient, PluginMessage, Registration } from "../client/index.ts";

export const DEFAULT_URL = "ws://127.0.0.1:7357/plugins";
export const DEFAULT_ID = "example-plugin";

/** The command this plugin executes; examples/shop.side's test "checked by the example plugin" uses it. */
export const EXAMPLE_COMMAND = "exampleCheck";
/** The variable the plugin puts when a run starts (PUT /playback/var), for `${examplePlugin}` in a command. */
export const EXAMPLE_VARIABLE = "examplePlugin";

const EXAMPLE_NAME = "example check";

/**
 * The locator strategy this plugin declares (CONTRACT section 23): `sku=hat-3` finds the element
 * whose data-sku is "hat-3" (examples/shop-page.html has one), and the recorder may write it for
 * an element with that attribute.
 */
export const EXAMPLE_STRATEGY: LocatorStrategy = { name: "sku", css: '[data-sku="{value}"]', attribute: "data-sku" };

export const REGISTRATION: Registration = {
  name: "Example plugin",
  version: "1.0.0",
  commands: [
    {
      id: EXAMPLE_COMMAND,
      name: EXAMPLE_NAME,
      // The shape Selenium IDE's plugins give their commands' documentation.
      docs: {
        description: "Checks that the target text contains the value (any text when the value is empty). Executed by the example plugin.",
        target: { name: "text", value: "The text to check; ${...} is replaced first." },
        value: { name: "expected", value: "Text the target must contain." },
      },
    },
  ],
};

export interface ExamplePluginOptions {
  url?: string;
  id?: string;
  token?: string;
  tokenFile?: string;
  /** Where each step is told; default console.log. */
  print?: (line: string) => void;
  /** The health/register loop's interval; default 1000 ms, as real plugins. */
  intervalMs?: number;
  /** A pause before answering each exampleCheck, so a person can watch its badge go from pending to its state; default 300 ms. */
  stepMs?: number;
}

export interface ExamplePlugin {
  client: PluginClient;
  /** Disconnects; the steps still under way end. */
  stop(): Promise<void>;
}

const describe = (reply: ErrorReply) => `${reply.errorCode}: ${reply.error}`;

/**
 * `exampleCheck TEXT EXPECTED`: the answers of CONTRACT section 10 a command handler gives.
 * A string passes with that string as the command's message; `{ error }` fails the command.
 */
export function exampleCheck({ target, value }: CommandToExecute): CommandAnswer {
  if (target.includes(value)) {
    return value === "" ? `checked ${JSON.stringify(target)}` : `${JSON.stringify(target)} contains ${JSON.stringify(value)}`;
  }
  return { error: `${JSON.stringify(target)} does not contain ${JSON.stringify(value)}` };
}

/** The URL as printed: npm start prints the bridge URL with the token, which stays off the screen here. */
function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.search = "";
    return parsed.toString();
  } catch {
    return url;
  }
}

const pause = (ms: number) =>
  ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms).unref()) : Promise.resolve();

/** Connects and starts every step; resolves once connected, and keeps running until stopped. */
export async function runExamplePlugin(options: ExamplePluginOptions = {}): Promise<ExamplePlugin> {
  const print = options.print ?? ((line: string) => console.log(line));
  const url = options.url ?? DEFAULT_URL;
  const id = options.id ?? DEFAULT_ID;
  const stepMs = options.stepMs ?? 300;

  print(`Connecting to ${withoutQuery(url)} as ${JSON.stringify(id)}...`);
  const client = await connectPlugin({ url, id, token: options.token, tokenFile: options.tokenFile });
  print("Connected.");
  let stopped = false;

  // The answer to `saveProject` decides whether the IDE counts the project as saved; the
  // first command of a run waits for every plugin's answer to `playbackStarted`.
  client.onMessage(async (message: PluginMessage) => {
    switch (message.event) {
      case "saveProject": {
        const { project } = message.options;
        print(`The IDE asked to save the project ${JSON.stringify(project.name)} (${project.tests.length} test cases): answered true, saved.`);
        return true;
      }
      case "projectLoaded":
        print(`The IDE loaded the project ${JSON.stringify(message.options.projectName)}.`);
        return true;
      case "playbackStarted": {
        print(`Test case ${JSON.stringify(message.options.testName)} started.`);
        // Put before answering, so that the run's first command already sees it.
        const value = `${REGISTRATION.name} ${REGISTRATION.version}`;
        const reply = await client.setVariable(EXAMPLE_VARIABLE, value);
        print(isErrorReply(reply) ? `Putting the variable ${EXAMPLE_VARIABLE} failed: ${describe(reply)}` : `Put the variable ${EXAMPLE_VARIABLE} = ${JSON.stringify(value)} for the run.`);
        return true;
      }
      case "playbackStopped":
        print(`Test case ${JSON.stringify(message.options.testName)} stopped.`);
        return true;
      case "suitePlaybackStarted":
        print(`A suite of ${message.options.tests.length} test cases started.`);
        return true;
      case "suitePlaybackStopped":
        print(`The suite ${JSON.stringify(message.options.suiteName)} stopped.`);
        return true;
      default:
        return true;
    }
  });

  // The IDE sends `execute` when a run reaches `exampleCheck`; the answer is the command's state.
  client.onCommand(EXAMPLE_COMMAND, async (command, { commandId }) => {
    await pause(stepMs);
    const answer = exampleCheck(command);
    const outcome = typeof answer === "string" ? `passed: ${answer}` : `failed: ${(answer as { error: string }).error}`;
    print(`Executed ${EXAMPLE_COMMAND} (command ${commandId}): ${outcome}.`);
    return answer;
  });

  let registrations = 0;
  let lastRefusal = "";
  client.keepRegistered(REGISTRATION, {
    intervalMs: options.intervalMs,
    onRegistered() {
      registrations += 1;
      lastRefusal = "";
      if (registrations === 1) {
        print(`Registered as ${JSON.stringify(REGISTRATION.name)} ${REGISTRATION.version}.`);
        void firstSteps();
      } else {
        print("Registered again: the IDE had forgotten the plugin (the window was closed and reopened).");
        // The IDE forgot its strategies with it.
        void declareStrategy();
      }
    },
    onRefused(reply, route) {
      // Printed once per reason: a closed window answers every second until it reopens.
      const text = `${route} answered ${describe(reply)}`;
      if (text !== lastRefusal) print(text);
      lastRefusal = text;
    },
    onFailed(error) {
      if (!stopped) print(`The health check stopped: ${error.message}`);
    },
  });

  async function firstSteps() {
    try {
      const step = async <T>(what: string, reply: Promise<unknown>, done: (value: T) => string) => {
        const value = await reply;
        print(isErrorReply(value) ? `${what} failed: ${describe(value)}` : done(value as T));
      };
      await step("The system log", client.log("Hello from the example plugin. Plugin docs: https://www.selenium.dev/selenium-ide/docs/en/plugins/plugins-getting-started"), () => "Wrote to the system log.");
      await step("The playback log", client.playbackLog("The example plugin is ready; its source is examples/plugin.ts, see https://www.selenium.dev/selenium-ide/docs/en/plugins/plugins-getting-started"), () => "Wrote to the playback log.");
      await step<{ id: string; name: string }>("Reading the project", client.getProject(), (project) => `The project is ${JSON.stringify(project.name)} (id ${project.id}).`);
      await step<string>("Resolving id=user", client.location("id=user"), (xpath) => `The locator id=user is the element ${xpath}.`);
      await declareStrategy();
      await step<string>("Resolving sku=hat-3", client.location("sku=hat-3"), (xpath) => `The locator sku=hat-3 is the element ${xpath}.`);
      await step<string>("Exporting id=user", client.exportLocation("id=user"), (code) => `In code, id=user is ${code}.`);
      print('Asking for control: click "Restart and allow access" in the IDE UI (or "Deny access").');
      const control = await client.control(REGISTRATION);
      if (isErrorReply(control)) print(`Asking for control failed: ${describe(control)}`);
      else if (control) {
        print('Control granted: the IDE is controlled by the example plugin. Run the test case "checked by the example plugin" in the UI to see it execute exampleCheck.');
        await offerToInsert();
      }
      else print("Control declined: the plugin goes on without it.");
    } catch (error) {
      if (!stopped) print(`A step failed: ${(error as Error).message}`);
    }
  }

  /** POST /locator/strategy: `sku=VALUE` works wherever a locator does while this plugin is registered. */
  async function declareStrategy() {
    const what = `Declaring the locator strategy ${EXAMPLE_STRATEGY.name}`;
    try {
      const reply = await client.declareStrategy(EXAMPLE_STRATEGY);
      print(isErrorReply(reply) ? `${what} failed: ${describe(reply)}` : `Declared the locator strategy ${EXAMPLE_STRATEGY.name}: ${EXAMPLE_STRATEGY.name}=VALUE finds ${EXAMPLE_STRATEGY.css}.`);
    } catch (error) {
      // The connection closed before the reply: said once, unless the plugin is stopping.
      if (!stopped) print(`${what} failed: ${(error as Error).message}`);
    }
  }

  /** Asks the user through the IDE, then inserts a command into the displayed test (CONTRACT section 13). */
  async function offerToInsert() {
    const shown = await client.getDisplayedTest();
    if (isErrorReply(shown)) {
      print(`Reading the displayed test failed: ${describe(shown)}`);
      return;
    }
    print(`The displayed test has ${shown.commands.length} commands. Asking the user whether to add an ${EXAMPLE_COMMAND} to it: answer the dialog in the IDE UI.`);
    const answer = await client.alert(`Add an "${EXAMPLE_NAME}" command to the test you are looking at, after the selected command?`, {
      confirm: "Add it",
      cancel: "No, thanks",
    });
    if (isErrorReply(answer)) {
      print(`Asking the user failed: ${describe(answer)}`);
      return;
    }
    if (!answer) {
      print("The user said no: nothing was added.");
      return;
    }
    const inserted = await client.addCommand({ command: EXAMPLE_COMMAND, target: "Added by the example plugin", value: "example plugin", select: true });
    print(
      isErrorReply(inserted)
        ? `Adding ${EXAMPLE_COMMAND} failed: ${describe(inserted)}`
        : `Inserted ${EXAMPLE_COMMAND} into the displayed test and selected it; the project has unsaved changes now.`,
    );
  }

  return {
    client,
    async stop() {
      stopped = true;
      await client.disconnect();
    },
  };
}

const USAGE = `Usage: npm run example:plugin -- [--url ${DEFAULT_URL}] [--id ${DEFAULT_ID}] [--token TOKEN | --token-file FILE]
The token is read from ~/.ide-core/token by default, where npm start writes it.`;

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: "string", default: DEFAULT_URL },
        id: { type: "string", default: DEFAULT_ID },
        token: { type: "string" },
        "token-file": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  let plugin: ExamplePlugin;
  try {
    plugin = await runExamplePlugin({ url: values.url, id: values.id, token: values.token, tokenFile: values["token-file"] });
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  let stopping = false;
  plugin.client.onClose(({ code, byPlugin }) => {
    if (byPlugin) return;
    console.error(`The IDE host closed the connection (code ${code}). Stopping.`);
    process.exit(1);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log("Stopping.");
    void plugin.stop().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  console.log("Running; Ctrl-C stops.");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
