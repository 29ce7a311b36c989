// What a trace keeps of the page under test beside its pictures (CONTRACT section 17): the
// console errors it logged and, for a failed command, its URL, title and HTML. The witness is
// the port: the host's hears the browser over DevTools (drivers/host/pageWitness.ts), the
// extension's through chrome.debugger and chrome.scripting (drivers/webextension/witness.ts).
// Both read the same DevTools events, told apart here: `Runtime.consoleAPICalled` of type
// error, `Log.entryAdded` of level error, `Runtime.exceptionThrown`.
import { z } from "zod";
import { consoleLine, MAX_CONSOLE_ERRORS } from "../../services/traces/index.ts";

/** The page's HTML is cut past this many characters. */
export const MAX_HTML_CHARS = 10_000_000;

export interface PageDetails {
  url: string;
  title: string;
  html: string | null;
}

export interface PageWitness {
  /** How many console errors were heard so far: a mark to read those after it. */
  mark(): number;
  /** The console errors heard since `mark` (at most MAX_CONSOLE_ERRORS, the last ones). */
  errorsSince(mark: number): string[];
  /** The page's URL, title and HTML; rejects when they cannot be had. */
  details(): Promise<PageDetails>;
  close(): void;
}

const RemoteValue = z.object({ type: z.string(), value: z.unknown().optional(), description: z.string().optional() }).passthrough();
const ConsoleCalled = z.object({ type: z.string(), args: z.array(RemoteValue) });
const LogEntry = z.object({ entry: z.object({ level: z.string(), text: z.string(), url: z.string().optional() }) });
const Thrown = z.object({ exceptionDetails: z.object({ text: z.string(), exception: RemoteValue.optional() }) });
/** The page's facts as a script in it reads them. */
export const PageFacts = z.object({ url: z.string(), title: z.string(), html: z.string() });

const text = (value: z.infer<typeof RemoteValue>) =>
  typeof value.value === "string" ? value.value : value.value !== undefined ? JSON.stringify(value.value) : (value.description ?? value.type);

/** The error a DevTools event tells of, or null for any other event. */
export function errorOf(method: string, params: unknown): string | null {
  if (method === "Runtime.consoleAPICalled") {
    const called = ConsoleCalled.safeParse(params);
    return called.success && called.data.type === "error" ? called.data.args.map(text).join(" ") : null;
  }
  if (method === "Log.entryAdded") {
    const logged = LogEntry.safeParse(params);
    return logged.success && logged.data.entry.level === "error" ? `${logged.data.entry.text}${logged.data.entry.url ? ` (${logged.data.entry.url})` : ""}` : null;
  }
  if (method === "Runtime.exceptionThrown") {
    const thrown = Thrown.safeParse(params);
    return thrown.success ? (thrown.data.exceptionDetails.exception?.description ?? thrown.data.exceptionDetails.text) : null;
  }
  return null;
}

/** The console errors heard, the last MAX_CONSOLE_ERRORS of them, read from a mark. */
export function consoleErrors() {
  const heard: string[] = [];
  let count = 0;
  return {
    hear(error: string) {
      count += 1;
      heard.push(consoleLine(error));
      if (heard.length > MAX_CONSOLE_ERRORS) heard.shift();
    },
    mark: () => count,
    since(mark: number): string[] {
      const since = Math.min(count - mark, heard.length);
      return since > 0 ? heard.slice(heard.length - since) : [];
    },
  };
}
