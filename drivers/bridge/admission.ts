// Who may reach the host at all. Any local process, and any web page the user visits, can
// open a connection to 127.0.0.1; so every HTTP request and WebSocket upgrade must name the
// host by its loopback name (a page that rebound its own DNS name to 127.0.0.1 sends that
// name instead), a browser must come from the host's own page, and a socket must present
// the token this host printed at start.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export interface Refusal {
  status: 400 | 401 | 403 | 404 | 409;
  reason: string;
}

const STATUS_TEXT: Record<Refusal["status"], string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
};

export const statusText = (status: Refusal["status"]) => STATUS_TEXT[status];

/** The names a request may give in its Host header: the loopback names with this port. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** The origins of the host's own page. */
export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((host) => `http://${host}`);
}

export function refuseHost(req: IncomingMessage, port: number): Refusal | null {
  const host = (req.headers.host ?? "").toLowerCase();
  if (allowedHosts(port).includes(host)) return null;
  return {
    status: 403,
    reason: `The Host header ${JSON.stringify(req.headers.host ?? "")} is not this host; use http://127.0.0.1:${port}.`,
  };
}

/** A browser always sends Origin on a WebSocket; tools outside a browser usually send none. */
export function refuseOrigin(req: IncomingMessage, port: number): Refusal | null {
  const origin = req.headers.origin;
  if (origin === undefined || allowedOrigins(port).includes(origin.toLowerCase())) return null;
  return { status: 403, reason: `Connections from the page ${JSON.stringify(origin)} are not allowed; only the IDE's own page may connect.` };
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Compared in constant time, so the token cannot be guessed a character at a time. */
export function tokenMatches(given: string | null, token: string): boolean {
  return given !== null && timingSafeEqual(digest(given), digest(token));
}

export function refuseToken(url: URL, token: string): Refusal | null {
  if (tokenMatches(url.searchParams.get("token"), token)) return null;
  const given = url.searchParams.has("token") ? "a wrong token" : "no token";
  return {
    status: 401,
    reason: `The connection presented ${given}. Use the URL and token that npm start printed (the token is also in the host's token file).`,
  };
}

/** Everything an upgrade must pass before any socket exists, in the order it is checked. */
export function refuseUpgrade(req: IncomingMessage, url: URL, port: number, token: string): Refusal | null {
  return refuseHost(req, port) ?? refuseOrigin(req, port) ?? refuseToken(url, token);
}
