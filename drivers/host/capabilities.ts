// The WebDriver session's capabilities (`--capabilities JSON`, CONTRACT section 16): what a
// Grid matches a node by, and what the browser starts with. Default: Chromium, headless.
import { z } from "zod";
import { CHROMIUM_FLAGS } from "./chromium.ts";
import { messageOf } from "../../services/errors.ts";

export type Capabilities = Record<string, unknown>;

/** Chromium headless, at the window size the IDE's picture and the recorder expect. */
export const defaultCapabilities = (): Capabilities => ({
  browserName: "chrome",
  "goog:chromeOptions": { args: [...CHROMIUM_FLAGS, "--headless=new", "--window-size=1280,900"] },
});

const CapabilitiesSchema = z.record(z.string(), z.unknown());

/** `--capabilities`' text as capabilities; throws a one-line TypeError naming what is wrong. */
export function parseCapabilities(text: string): Capabilities {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TypeError(`--capabilities is not JSON (${messageOf(error)}); give an object, e.g. '{"browserName":"chrome"}'.`);
  }
  const parsed = CapabilitiesSchema.safeParse(value);
  if (!parsed.success || Array.isArray(value)) {
    throw new TypeError(`--capabilities must be a JSON object of capabilities, e.g. '{"browserName":"chrome"}', not ${JSON.stringify(value)}.`);
  }
  return parsed.data;
}

/**
 * The capabilities a session opens with: the given ones (or the default), with Chromium's
 * path added when one is set for this process (always when it starts chromedriver itself; for
 * a remote end only CHROMIUM_PATH) and they name no binary.
 */
export function sessionCapabilities(given: Capabilities | undefined, chromiumPath: string | undefined): Capabilities {
  const caps = structuredClone(given ?? defaultCapabilities());
  if (chromiumPath && (caps.browserName === undefined || caps.browserName === "chrome")) {
    const options = (typeof caps["goog:chromeOptions"] === "object" && caps["goog:chromeOptions"] !== null ? caps["goog:chromeOptions"] : {}) as Record<string, unknown>;
    if (options.binary === undefined) caps["goog:chromeOptions"] = { ...options, binary: chromiumPath };
    caps.browserName ??= "chrome";
  }
  return caps;
}
