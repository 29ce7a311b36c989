// What a trace keeps of the page under test beside its pictures (CONTRACT section 17): the
// console errors it logged (`Runtime.consoleAPICalled` of type error, `Log.entryAdded` of level
// error, `Runtime.exceptionThrown`) and, for a failed command, its URL, title and HTML. Over the
// browser's one DevTools connection (devtoolsConnection.ts), in sessions of its own in each
// page there was when it started and in the window WebDriver drives when details are asked.
// Everything the browser sends is read with zod; every request has the connection's limit.
import type { WebDriver } from "selenium-webdriver";
import { z } from "zod";
import { consoleLine, MAX_CONSOLE_ERRORS } from "../../services/traces/index.ts";
import { devToolsOf } from "./devtoolsConnection.ts";
import type { DevToolsConnection } from "./devtoolsConnection.ts";

/** The page's HTML is cut past this many characters. */
const MAX_HTML_CHARS = 10_000_000;

const RemoteValue = z.object({ type: z.string(), value: z.unknown().optional(), description: z.string().optional() }).passthrough();
const ConsoleCalled = z.object({ type: z.string(), args: z.array(RemoteValue) });
const LogEntry = z.object({ entry: z.object({ level: z.string(), text: z.string(), url: z.string().optional() }) });
const Thrown = z.object({ exceptionDetails: z.object({ text: z.string(), exception: RemoteValue.optional() }) });
const Evaluated = z.object({ result: z.object({ value: z.unknown().optional() }) });
const PageFacts = z.object({ url: z.string(), title: z.string(), html: z.string() });

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
  /** The URL, title and HTML of the window WebDriver drives; rejects when they cannot be had. */
  details(): Promise<PageDetails>;
  close(): void;
}

const text = (value: z.infer<typeof RemoteValue>) =>
  typeof value.value === "string" ? value.value : value.value !== undefined ? JSON.stringify(value.value) : (value.description ?? value.type);

/** The error an event tells of, or null for any other event. */
function errorOf(method: string, params: Record<string, unknown>): string | null {
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

/** The witness of the browser `driver` drives, or null when this host cannot reach its DevTools. */
export async function pageWitness(driver: WebDriver): Promise<PageWitness | null> {
  const connection = await devToolsOf(driver);
  if (!connection) return null;
  const sessions = new Map<string, Promise<string>>();
  /** Sessions whose Runtime.enable answered: what they replay of before is not heard. */
  const hearing = new Set<string>();
  const heard: string[] = [];
  let count = 0;
  const stop = connection.listen((method, params, from) => {
    if (from === undefined || !hearing.has(from)) return;
    const error = errorOf(method, params);
    if (error === null) return;
    count += 1;
    heard.push(consoleLine(error));
    if (heard.length > MAX_CONSOLE_ERRORS) heard.shift();
  });
  const sessionIn = (targetId: string) => {
    let session = sessions.get(targetId);
    if (!session) {
      session = listenIn(connection, targetId, hearing);
      session.catch(() => sessions.delete(targetId));
      sessions.set(targetId, session);
    }
    return session;
  };
  for (const page of await connection.pages()) void sessionIn(page.targetId).catch(() => {});
  return {
    mark: () => count,
    errorsSince(mark) {
      const since = Math.min(count - mark, heard.length);
      return since > 0 ? heard.slice(heard.length - since) : [];
    },
    async details() {
      const open = await connection.pages();
      let target = open.length === 1 ? open[0] : undefined;
      if (!target) {
        const handle = await driver.getWindowHandle();
        target = open.find((t) => t.targetId === handle);
      }
      if (!target) throw new Error("the window WebDriver drives is not among the browser's pages");
      const sessionId = await sessionIn(target.targetId);
      const expression = `({ url: location.href, title: document.title, html: document.documentElement ? document.documentElement.outerHTML.slice(0, ${MAX_HTML_CHARS}) : "" })`;
      const evaluated = Evaluated.parse(await connection.send("Runtime.evaluate", { expression, returnByValue: true }, sessionId));
      const facts = PageFacts.safeParse(evaluated.result.value);
      return facts.success ? facts.data : { url: target.url, title: target.title, html: null };
    },
    close() {
      stop();
      for (const session of sessions.values()) void session.then((sessionId) => connection.send("Target.detachFromTarget", { sessionId }), () => {}).catch(() => {});
      sessions.clear();
    },
  };
}

/** A session in the page that hears its console and its errors from now on. */
async function listenIn(connection: DevToolsConnection, targetId: string, hearing: Set<string>): Promise<string> {
  const sessionId = await connection.attach(targetId);
  await connection.send("Runtime.enable", {}, sessionId);
  await connection.send("Log.enable", {}, sessionId);
  hearing.add(sessionId);
  return sessionId;
}
