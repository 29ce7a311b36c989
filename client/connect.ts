// Connecting a plugin to the IDE host's bridge: the options checked, the token found, and a
// refused upgrade turned into a sentence a plugin author can act on.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { BridgeClient } from "./connection.ts";
import type { ConnectOptions, PluginClient } from "./types.ts";

/** The host refused the connection at the upgrade; `status` is its HTTP status. */
export class ConnectionRefusedError extends Error {
  override readonly name = "ConnectionRefusedError";
  constructor(
    message: string,
    readonly status: number,
    /** The host's own words, from the response body. */
    readonly hostReason: string,
  ) {
    super(message);
  }
}

export const defaultTokenFile = (): string => join(homedir(), ".ide-core", "token");

// ---------------------------------------------------------------------------------------
// Connecting

const MAX_ID_LENGTH = 200;

function checkOptions(options: ConnectOptions): { url: URL; id: string } {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("connectPlugin needs an options object: { url, id }.");
  }
  const { id } = options;
  if (typeof id !== "string" || id.length === 0) {
    throw new TypeError("connectPlugin needs `id`, the plugin id (a non-empty string), e.g. \"my-plugin\".");
  }
  if (id.length > MAX_ID_LENGTH) {
    throw new TypeError(`The plugin id is ${id.length} characters long; it may have at most ${MAX_ID_LENGTH}.`);
  }
  if (typeof options.url !== "string" || options.url.length === 0) {
    throw new TypeError("connectPlugin needs `url`, the bridge's address, e.g. ws://127.0.0.1:7357/plugins.");
  }
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new TypeError(`${JSON.stringify(options.url)} is not a URL; the bridge's address looks like ws://127.0.0.1:7357/plugins.`);
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    throw new TypeError(
      `${JSON.stringify(options.url)} is not a WebSocket URL (it must start with ws://), e.g. ws://127.0.0.1:7357/plugins.`,
    );
  }
  if (options.token !== undefined && (typeof options.token !== "string" || options.token.length === 0)) {
    throw new TypeError("`token`, when given, must be a non-empty string.");
  }
  return { url, id };
}

async function readToken(tokenFile: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(tokenFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error(
        `No token for the IDE host: none was given and the token file ${tokenFile} does not exist. ` +
          "Start the host with npm start first (it writes its token there), or pass the token it printed.",
      );
    }
    throw new Error(`Could not read the IDE host's token file ${tokenFile}: ${(error as Error).message}`);
  }
  const token = text.trim();
  if (token.length === 0) {
    throw new Error(`The token file ${tokenFile} is empty. Start the host with npm start first; it writes its token there.`);
  }
  return token;
}

function refusalMessage(status: number, id: string, url: string, hostReason: string): string {
  const because = hostReason ? ` The host says: ${hostReason}` : "";
  switch (status) {
    case 400:
      return `The IDE host refused the plugin id ${JSON.stringify(id)} as unusable (HTTP 400).${because}`;
    case 401:
      return (
        `The IDE host refused the connection: the token is wrong or missing (HTTP 401). ` +
        `Use the token npm start printed, or let the client read it from the host's token file.${because}`
      );
    case 403:
      return `The IDE host refused the connection from here (HTTP 403).${because}`;
    case 404:
      return `Nothing takes plugins at ${url} (HTTP 404); the bridge is at ws://127.0.0.1:PORT/plugins.${because}`;
    case 409:
      return (
        `The plugin id ${JSON.stringify(id)} is already connected to the IDE host (HTTP 409); ` +
        `a plugin id belongs to one connection at a time. Close the other connection or use another id.${because}`
      );
    default:
      return `The IDE host refused the connection with HTTP ${status}.${because}`;
  }
}

/** The host's words from a refusal's body: plain text, or a JSON object's error/reason. */
function reasonFromBody(body: string): string {
  const text = body.trim();
  try {
    const data = JSON.parse(text) as Record<string, unknown>;
    for (const key of ["error", "reason", "message"]) {
      if (typeof data?.[key] === "string") return (data[key] as string).slice(0, 500);
    }
  } catch {
    // not JSON: the text is the reason
  }
  return text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim().slice(0, 500);
}

const REFUSAL_BODY_BYTES = 4096;

/** Opens the socket; settles once: open, refused at the upgrade, or unreachable. */
function opened(ws: WebSocket, id: string, shownUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      ws.off("open", onOpen);
      if (error) reject(error);
      else resolve();
    };
    const onOpen = () => settle();
    ws.on("open", onOpen);
    ws.on("unexpected-response", (_req, res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      let read = false;
      const done = () => {
        if (read) return;
        read = true;
        const hostReason = reasonFromBody(Buffer.concat(chunks).toString("utf8"));
        settle(new ConnectionRefusedError(refusalMessage(status, id, shownUrl, hostReason), status, hostReason));
        ws.terminate();
      };
      res.on("data", (chunk: Buffer) => {
        if (size < REFUSAL_BODY_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.on("end", done);
      res.on("error", done);
      res.on("close", done);
    });
    ws.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED") {
        settle(
          Object.assign(
            new Error(`Could not reach the IDE host at ${shownUrl}: nothing is listening there. Start it with npm start.`, {
              cause: error,
            }),
            { code: error.code },
          ),
        );
      } else {
        settle(new Error(`Could not connect to the IDE host at ${shownUrl}: ${error.message}`, { cause: error }));
      }
    });
    ws.on("close", (code) => settle(new Error(`The IDE host closed the connection (code ${code}) before it was open.`)));
  });
}

/** Connects a plugin to the IDE host's bridge. Rejects with a sentence when it cannot. */
export async function connectPlugin(options: ConnectOptions): Promise<PluginClient> {
  const { url, id } = checkOptions(options);
  const token = options.token ?? url.searchParams.get("token") ?? (await readToken(options.tokenFile ?? defaultTokenFile()));
  url.searchParams.delete("token");
  url.searchParams.delete("id");
  const shownUrl = url.toString();
  url.searchParams.set("id", id);
  url.searchParams.set("token", token);
  const ws = new WebSocket(url, { handshakeTimeout: options.handshakeTimeoutMs ?? 10_000 });
  // Listening before the socket opens, so no frame that arrives with the open is missed.
  const client = new BridgeClient(ws, id, shownUrl);
  try {
    await opened(ws, id, shownUrl);
  } catch (error) {
    ws.terminate();
    throw error;
  }
  return client;
}
