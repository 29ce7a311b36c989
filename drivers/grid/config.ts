// The Grid's TOML configs (Selenium Grid 4's `--config`): every server and event-bus address
// on 127.0.0.1, driver detection and Selenium Manager off, and one driver configuration that
// names Chromium and chromedriver by path.

export interface GridPorts {
  /** The hub's (or standalone's) HTTP port: where sessions are opened. */
  hub: number;
  /** The node's own HTTP port (unused by a standalone). */
  node: number;
  /** The event bus, which the hub binds and the node connects to. */
  publish: number;
  subscribe: number;
}

export interface GridConfigInput {
  ports: GridPorts;
  maxSessions: number;
  chromium: string;
  chromedriver: string;
  standalone: boolean;
}

/** A TOML string (JSON's escapes are TOML's for these). */
const str = (value: string) => JSON.stringify(value);

const server = (port: number) => `[server]\nhost = "127.0.0.1"\nport = ${port}\n`;

function nodeSection({ maxSessions, chromium, chromedriver }: GridConfigInput): string {
  const stereotype = JSON.stringify({ browserName: "chrome", "goog:chromeOptions": { binary: chromium } });
  return [
    "[node]",
    "detect-drivers = false",
    "selenium-manager = false",
    `max-sessions = ${maxSessions}`,
    "override-max-sessions = true",
    "",
    "[[node.driver-configuration]]",
    `display-name = "Chromium"`,
    `webdriver-executable = ${str(chromedriver)}`,
    `max-sessions = ${maxSessions}`,
    `stereotype = ${str(stereotype)}`,
    "",
  ].join("\n");
}

/** The processes to start, each with its role (the jar's subcommand) and config. */
export function gridConfigs(input: GridConfigInput): Array<{ role: "hub" | "node" | "standalone"; toml: string }> {
  const { ports } = input;
  if (input.standalone) return [{ role: "standalone", toml: `${server(ports.hub)}\n${nodeSection(input)}` }];
  const events = (bind: boolean) =>
    `[events]\npublish = "tcp://127.0.0.1:${ports.publish}"\nsubscribe = "tcp://127.0.0.1:${ports.subscribe}"\nbind = ${bind}\n`;
  return [
    { role: "hub", toml: `${server(ports.hub)}\n${events(true)}` },
    {
      role: "node",
      toml: `${server(ports.node)}\n${events(false)}\n${nodeSection(input).replace("[node]\n", `[node]\nhub = "http://127.0.0.1:${ports.hub}"\n`)}`,
    },
  ];
}
