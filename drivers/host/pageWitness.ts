// What a trace keeps of the page under test beside its pictures (CONTRACT section 17): the
// console errors it logged (`Runtime.consoleAPICalled` of type error, `Log.entryAdded` of level
// error, `Runtime.exceptionThrown`) and, for a failed command, its URL, title and HTML. Over the
// browser's one DevTools connection (devtoolsConnection.ts), in sessions of its own in each
// page there was when it started and in the window WebDriver drives when details are asked.
// Everything the browser sends is read with zod; every request has the connection's limit.
import type { WebDriver } from "selenium-webdriver";
import { z } from "zod";
import { consoleErrors, errorOf, MAX_HTML_CHARS, PageFacts } from "../traces/witness.ts";
import type { PageDetails, PageWitness } from "../traces/witness.ts";
import { devToolsOf } from "./devtoolsConnection.ts";
import type { DevToolsConnection } from "./devtoolsConnection.ts";

export type { PageDetails, PageWitness };

const Evaluated = z.object({ result: z.object({ value: z.unknown().optional() }) });

/** The witness of the browser `driver` drives, or null when this host cannot reach its DevTools. */
export async function pageWitness(driver: WebDriver): Promise<PageWitness | null> {
  const connection = await devToolsOf(driver);
  if (!connection) return null;
  const sessions = new Map<string, Promise<string>>();
  /** Sessions whose Runtime.enable answered: what they replay of before is not heard. */
  const hearing = new Set<string>();
  const heard = consoleErrors();
  const stop = connection.listen((method, params, from) => {
    if (from === undefined || !hearing.has(from)) return;
    const error = errorOf(method, params);
    if (error === null) return;
    heard.hear(error);
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
    mark: heard.mark,
    errorsSince: heard.since,
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
