// The host's kept runs for its IDE page's time travel (CONTRACT section 17), read-only:
//   GET /traces?token=T                 the kept runs, newest first (those still playing too)
//   GET /traces/ID?token=T              one run's manifest (services/traces/)
//   GET /traces/ID/FILE?token=T         a picture or DOM snapshot the manifest references
// Only the IDE page may read them: the same Host, Origin and token checks as its /ui socket.
// What the path names is checked at the door (zod): an id that is not a trace's, a file name
// with anything but letters, digits, dashes and one extension, or a file the manifest does not
// reference is refused with the reason, so nothing outside a trace's folder is ever read. A DOM
// snapshot is the page under test's HTML: it is served sandboxed (no script, an origin of its
// own), so it can never act as the IDE page.
import { readdir, readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { z } from "zod";
import { refuseOrigin, refuseToken } from "../../drivers/bridge/admission.ts";
import type { Refusal } from "../../drivers/bridge/admission.ts";
import { MANIFEST_FILE, listedRuns, readTraceManifest, TRACE_ID } from "../../services/traces/index.ts";
import type { TraceManifest, TraceSummary } from "../../services/traces/index.ts";

export const TRACES_PATH = "/traces";

/** Where the kept runs are: the trace store's folder and the traces it is still writing. */
export interface TraceReader {
  readonly root: string;
  live(): TraceManifest[];
}


const FILE_NAME = /^[A-Za-z0-9_-]{1,100}\.(jpg|jpeg|png|html)$/;
const RUN_ID = z.string().regex(TRACE_ID, "is not a run's id (ids look like 20261127-193012-345-0007)");
const pathSchema = z.object({
  id: RUN_ID.optional(),
  file: z.string().regex(FILE_NAME, "is not a trace file's name (a name like 00003.jpg, without folders)").optional(),
});

/** The run's id and file the path names, or why it names none. */
function pathOf(parts: string[]): { ok: true; id?: string; file?: string } | { ok: false; reason: string } {
  if (parts.length > 2) return { ok: false, reason: `${TRACES_PATH}/${parts.join("/")} names no trace file: a run's files are ${TRACES_PATH}/ID/FILE.` };
  const given = { id: parts[0], file: parts[1] };
  const parsed = pathSchema.safeParse(given);
  if (parsed.success) return { ok: true, ...parsed.data };
  const issue = parsed.error.issues[0];
  const key = issue?.path[0] === "file" ? "file" : "id";
  return { ok: false, reason: `${JSON.stringify(given[key])} ${issue?.message ?? "is not valid"}.` };
}

const TYPES: Record<string, string> = { jpg: "image/jpeg", jpeg: "image/jpeg", png: "image/png", html: "text/html; charset=utf-8" };
/** The page under test's HTML: shown, never run, and never the IDE page's origin. */
const SNAPSHOT_POLICY = "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'";

/** The path's parts after /traces, each decoded once; null when the path is not under /traces. */
function partsOf(pathname: string): string[] | null {
  if (pathname !== TRACES_PATH && !pathname.startsWith(`${TRACES_PATH}/`)) return null;
  return pathname
    .slice(TRACES_PATH.length)
    .split("/")
    .filter((part) => part !== "")
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
}

export function traceRoutes(reader: TraceReader, token: string, port: () => number) {
  async function manifestOf(id: string): Promise<TraceManifest | null> {
    const live = reader.live().find((m) => m.traceId === id);
    if (live) return live;
    const text = await readFile(join(reader.root, id, MANIFEST_FILE), "utf8").catch(() => null);
    if (text === null) return null;
    try {
      const read = readTraceManifest(JSON.parse(text));
      return read.ok ? read.manifest : null;
    } catch {
      return null;
    }
  }

  async function list(): Promise<TraceSummary[]> {
    const live = reader.live();
    const ids = (await readdir(reader.root).catch(() => [] as string[])).filter((id) => TRACE_ID.test(id) && !live.some((m) => m.traceId === id));
    const kept = await Promise.all(ids.map(manifestOf));
    return listedRuns(live, kept.filter((m): m is TraceManifest => m !== null));
  }

  function fail(res: ServerResponse, refusal: Refusal | { status: 405; reason: string }) {
    res.writeHead(refusal.status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
    res.end(`${refusal.reason}\n`);
  }

  function ok(res: ServerResponse, req: IncomingMessage, type: string, body: Buffer | string, headers: Record<string, string> = {}) {
    res.writeHead(200, {
      "Content-Type": type,
      "Content-Length": String(Buffer.byteLength(body)),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      ...headers,
    });
    res.end(req.method === "HEAD" ? undefined : body);
  }

  async function answer(req: IncomingMessage, res: ServerResponse, parts: string[]) {
    const path = pathOf(parts);
    if (!path.ok) return fail(res, { status: 400, reason: path.reason });
    const { id, file } = path;
    if (id === undefined) return ok(res, req, "application/json", JSON.stringify({ runs: await list() }));
    const manifest = await manifestOf(id);
    if (!manifest) return fail(res, { status: 404, reason: `No kept run has the id ${id} (the last 20 runs are kept).` });
    if (file === undefined) return ok(res, req, "application/json", JSON.stringify(manifest));
    const referenced = manifest.steps.some((s) => s.screenshot === file || s.failure?.dom === file);
    if (!referenced) return fail(res, { status: 404, reason: `The run ${id} has no file ${file}.` });
    const body = await readFile(join(reader.root, id, file)).catch(() => null);
    if (body === null) return fail(res, { status: 404, reason: `The run ${id}'s file ${file} is gone.` });
    const type = TYPES[file.slice(file.lastIndexOf(".") + 1)];
    ok(res, req, type, body, type.startsWith("text/html") ? { "Content-Security-Policy": SNAPSHOT_POLICY } : {});
  }

  return {
    /** Answers a request under /traces (true), or leaves it to others (false). */
    handle(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
      const parts = partsOf(url.pathname);
      if (parts === null) return false;
      const refusal = refuseOrigin(req, port()) ?? refuseToken(url, token);
      if (refusal) fail(res, refusal);
      else if (req.method !== "GET" && req.method !== "HEAD") fail(res, { status: 405, reason: "Only GET is allowed here." });
      else void answer(req, res, parts).catch(() => fail(res, { status: 404, reason: "The run could not be read." }));
      return true;
    },
  };
}
