// side-runner's `key=value` form (CONTRACT section 22), for `-c`, `-p` and `--proxy-options`:
// `"browserName=chrome goog:chromeOptions.args=[headless,disable-gpu] a.b='x y'"`. Pairs are
// separated by spaces; a dotted key nests; a value in [ ] is a list of strings split at commas,
// one in quotes keeps its spaces, and anything else is JSON when it reads as JSON (numbers,
// true) or else the text itself, as side-runner reads it. Unlike side-runner, a piece that is
// not a pair is refused, naming it, instead of being dropped without a word.
import { defaultCapabilities, parseCapabilities } from "../../drivers/host/capabilities.ts";
import type { Capabilities } from "../../drivers/host/capabilities.ts";

type Tree = Record<string, unknown>;

/** One pair: a key without spaces, then a value in quotes, in brackets, or up to the next space. */
const PAIR = /\s*([^\s=]+)\s*=\s*("[^"]*"|'[^']*'|\[[^\]]*\]|\S*)\s*/y;

const isTree = (value: unknown): value is Tree => typeof value === "object" && value !== null && !Array.isArray(value);

function valueOf(text: string): unknown {
  if (text.startsWith("[") && text.endsWith("]")) {
    return text
      .slice(1, -1)
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "");
  }
  if (text.length >= 2 && text[0] === "'" && text.endsWith("'")) return text.slice(1, -1);
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "string" ? parsed.trim() : parsed;
  } catch {
    return text;
  }
}

/** `key=value key.sub=value` as a tree; throws a TypeError naming the first piece that is not a pair. */
export function parseKeyValues(text: string, what: string): Tree {
  const tree: Tree = {};
  PAIR.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    if (text.slice(at).trim() === "") break;
    PAIR.lastIndex = at;
    const match = PAIR.exec(text);
    if (!match) {
      const piece = text.slice(at).trim().split(/\s+/)[0];
      throw new TypeError(`${what}: ${JSON.stringify(piece)} is not a key=value pair; write e.g. "browserName=chrome a.b='x y'"`);
    }
    at = PAIR.lastIndex;
    const keys = match[1].split(".");
    if (keys.some((k) => k === "")) throw new TypeError(`${what}: ${JSON.stringify(match[1])} has an empty part in its dotted key`);
    let node = tree;
    for (const key of keys.slice(0, -1)) {
      if (!isTree(node[key])) node[key] = {};
      node = node[key] as Tree;
    }
    node[keys[keys.length - 1]] = valueOf(match[2]);
  }
  return tree;
}

/** `b` laid over `a`: objects merge key by key, anything else (a list among them) replaces. */
export function deepMerge(a: Tree, b: Tree): Tree {
  const out: Tree = { ...a };
  for (const [key, value] of Object.entries(b)) out[key] = isTree(value) && isTree(out[key]) ? deepMerge(out[key], value) : value;
  return out;
}

/**
 * `-c`'s text: JSON (an object, as `--capabilities` always took: it replaces the default), or
 * side-runner's form, laid over the default (Chromium headless) as side-runner lays it over its
 * own `browserName: chrome`. Throws a one-line TypeError.
 */
export function capabilitiesOf(text: string): Capabilities {
  // JSON begins with a bracket, and so is refused as JSON when it is not an object.
  if (/^\s*[[{]/.test(text)) return parseCapabilities(text);
  return deepMerge(defaultCapabilities(), parseKeyValues(text, "--capabilities"));
}

/** `-p`'s pairs as variables: every value a string, as a test's stored text is. */
export function paramsOf(text: string): Record<string, string> {
  const tree = parseKeyValues(text, "--params");
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) out[key] = typeof value === "string" ? value : JSON.stringify(value);
  return out;
}

const PROXY_TYPES = ["direct", "system", "manual", "pac", "socks"] as const;

/**
 * The capabilities' `proxy` for `--proxy-type` and `--proxy-options` (side-runner's meanings):
 * direct and system take no options; pac takes the autoconfig URL; manual takes
 * `http=HOST:PORT ...`; socks takes `socksProxy=HOST:PORT [socksVersion=5]`. Throws a TypeError.
 */
export function proxyOf(type: string, options: string | Tree | undefined): Tree {
  if (!PROXY_TYPES.includes(type as (typeof PROXY_TYPES)[number])) throw new TypeError(`--proxy-type must be one of ${PROXY_TYPES.join(", ")}, not ${JSON.stringify(type)}`);
  if (type === "direct" || type === "system") return { proxyType: type };
  if (type === "pac") {
    if (typeof options !== "string" || options === "") throw new TypeError('--proxy-type pac needs the autoconfig URL: --proxy-options "http://host/proxy.pac"');
    return { proxyType: "pac", proxyAutoconfigUrl: options };
  }
  const pairs = typeof options === "string" ? parseKeyValues(options, "--proxy-options") : (options ?? {});
  if (type === "manual") return { proxyType: "manual", ...pairs };
  if (typeof pairs.socksProxy !== "string") throw new TypeError('--proxy-type socks needs --proxy-options "socksProxy=HOST:PORT [socksVersion=5]"');
  const version = pairs.socksVersion === undefined ? undefined : Number(pairs.socksVersion);
  if (version !== undefined && !Number.isInteger(version)) throw new TypeError(`--proxy-options: socksVersion must be a whole number, not ${JSON.stringify(pairs.socksVersion)}`);
  return { proxyType: "manual", socksProxy: pairs.socksProxy, ...(version !== undefined ? { socksVersion: version } : {}) };
}
