// The example plugin (`npm run example:plugin`): a plugin author's first working plugin,
// written against the typed client only. It does, in order and out loud, what real plugins
// do: keeps itself registered, logs to both groups, reads the project, resolves a locator,
// answers the IDE's messages, sets command states while a test case runs, and asks for
// control. `runExamplePlugin` is exported so the tests drive the very same steps.
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { connectPlugin, isErrorReply } from "../adapters/bridge/client.ts";
import type { CommandState, ErrorReply, OutboundMessage, PluginClient, Registration, SideProject } from "../adapters/bridge/client.ts";

export const DEFAULT_URL = "ws://127.0.0.1:7357/plugins";
export const DEFAULT_ID = "example-plugin";

export const REGISTRATION: Registration = {
  name: "Example plugin",
  version: "1.0.0",
  commands: [{ id: "exampleCheck", name: "example check" }],
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
  /** A pause between two command states, so a person can watch the badges change; default 300 ms. */
  stepMs?: number;
}

export interface ExamplePlugin {
  client: PluginClient;
  /** Disconnects; the steps still under way end. */
  stop(): Promise<void>;
}

const describe = (reply: ErrorReply) => `${reply.errorCode}: ${reply.error}`;

// The contract gives a plugin no route to read a test case's commands, only `playbackStarted`
// with the test's id. This plugin knows its own project file, as a plugin that ships with a
// project would, and finds the command ids there.
const shopProject = (): SideProject =>
  JSON.parse(readFileSync(fileURLToPath(new URL("./shop.side", import.meta.url)), "utf8")) as SideProject;

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

  // The answer to `saveProject` decides whether the IDE counts the project as saved.
  client.onMessage((message: OutboundMessage) => {
    switch (message.event) {
      case "saveProject": {
        const { project } = message.options;
        print(`The IDE asked to save the project ${JSON.stringify(project.name)} (${project.tests.length} test cases): answered true, saved.`);
        return true;
      }
      case "projectLoaded":
        print(`The IDE loaded the project ${JSON.stringify(message.options.projectName)}.`);
        return true;
      case "playbackStarted":
        print(`Test case ${JSON.stringify(message.options.testName)} started.`);
        // Answered at once; the states are set beside the answer, not before it.
        void setCommandStates(message.options.testId);
        return true;
      case "playbackStopped":
        print(`Test case ${JSON.stringify(message.options.testName)} stopped.`);
        return true;
      default:
        return true;
    }
  });

  async function setCommandStates(testId: string) {
    const test = shopProject().tests.find((candidate) => candidate.id === testId);
    if (!test) {
      print(`The example plugin knows only the test cases of examples/shop.side; ${JSON.stringify(testId)} is not one of them.`);
      return;
    }
    const states: CommandState[] = ["pending", "passed"];
    for (const command of test.commands) {
      for (const state of states) {
        if (stopped) return;
        await pause(stepMs);
        const message = state === "passed" ? `checked by the example plugin` : undefined;
        const reply = await client.commandState(command.id, state, message).catch((error: Error) => error);
        if (reply instanceof Error || isErrorReply(reply)) {
          // The user stopped the test case, or loaded another project: nothing more to mark.
          print(`Stopped setting command states: ${reply instanceof Error ? reply.message : describe(reply)}`);
          return;
        }
        print(`Command ${command.id} (${command.command}) is ${state}.`);
      }
    }
    await client.playbackLog(`The example plugin checked every command of ${JSON.stringify(test.name)}.`).catch(() => {});
  }

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
      print('Asking for control: click "Restart and allow access" in the IDE UI (or "Deny access").');
      const control = await client.control(REGISTRATION);
      if (isErrorReply(control)) print(`Asking for control failed: ${describe(control)}`);
      else if (control) print("Control granted: the IDE is controlled by the example plugin. Start a test case in the UI to see command states.");
      else print("Control declined: the plugin goes on without it.");
    } catch (error) {
      if (!stopped) print(`A step failed: ${(error as Error).message}`);
    }
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
