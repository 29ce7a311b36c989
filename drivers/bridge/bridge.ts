// The plugin bridge: plugins outside a browser talk to the IDE over a WebSocket each.
// A connection's plugin id is its sender id for every request (a field inside a frame never
// is); one id belongs to one connection at a time. Frames go transport → protocol
// (ide.handle) → reply frame; the IDE's outbound messages (events and a plugin command's
// `execute`) go out as event frames and come back as response frames, whose `response`
// (absent for `undefined`, see frames.ts) is what deliver() resolves with. A dropped connection is told to the IDE (ide.dropSender), which
// ends that plugin's dialogs and control and nothing else.
import type { WebSocket } from "ws";
import type { Ide, OutboundMessage } from "../../core/ide.ts";
import { invalidFrame, readPluginFrame } from "./frames.ts";
import type { FrameId, HostFrame } from "./frames.ts";
import type { Refusal } from "./admission.ts";

const PLUGIN_ID = /^[\x21-\x7e]{1,200}$/;

interface WaitingResponse {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface Connection {
  socket: WebSocket | null; // null while the upgrade is under way
  inFlight: Set<FrameId>;
  waiting: Map<string, WaitingResponse>;
}

export interface PluginBridge {
  /** Checks the id an upgrade claims and holds it for that upgrade; a refusal when it cannot have it. */
  claim(pluginId: string | null): Refusal | null;
  /** Gives up a claim whose upgrade failed before a socket existed. */
  release(pluginId: string): void;
  /** Takes over the socket of a claimed id. */
  accept(pluginId: string, socket: WebSocket): void;
  /** `options.deliver` of createIde: an event frame out (any outbound message, `execute` too), the plugin's response back. */
  deliver(pluginId: string, message: OutboundMessage): Promise<unknown>;
  connected(): string[];
  close(): void;
}

export interface BridgeOptions {
  /** The IDE, once it exists (it needs the bridge's deliver to be created). */
  ide: () => Ide;
  /** How long a plugin has to answer an event; the IDE gives up at the same time. */
  responseTimeoutMs: number;
}

export function createPluginBridge({ ide, responseTimeoutMs }: BridgeOptions): PluginBridge {
  const connections = new Map<string, Connection>();
  let eventCount = 0;

  function send(socket: WebSocket, frame: HostFrame) {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  }

  function onText(pluginId: string, connection: Connection, socket: WebSocket, text: string) {
    const reading = readPluginFrame(text);
    if (!reading.ok) return send(socket, invalidFrame(reading.id, reading.problem));
    const frame = reading.frame;
    if (frame.type === "response") {
      const waiting = connection.waiting.get(frame.id);
      if (!waiting) {
        return send(socket, invalidFrame(frame.id, `No event with the id ${JSON.stringify(frame.id)} is waiting for a response.`));
      }
      connection.waiting.delete(frame.id);
      clearTimeout(waiting.timer);
      return waiting.resolve(frame.response);
    }
    if (connection.inFlight.has(frame.id)) {
      return send(socket, invalidFrame(frame.id, `A request with the id ${JSON.stringify(frame.id)} is still waiting for its reply; use a new id.`));
    }
    connection.inFlight.add(frame.id);
    // The sender is the connection's plugin id, whatever the message says.
    void ide()
      .handle(frame.message, { id: pluginId })
      .then((reply) => {
        connection.inFlight.delete(frame.id);
        send(socket, { type: "reply", id: frame.id, reply });
      });
  }

  function dropped(pluginId: string, connection: Connection) {
    if (connections.get(pluginId) !== connection) return;
    connections.delete(pluginId);
    for (const waiting of connection.waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error(`the plugin ${pluginId} disconnected before it answered`));
    }
    connection.waiting.clear();
    ide().dropSender(pluginId);
  }

  return {
    claim(pluginId) {
      if (pluginId === null || !PLUGIN_ID.test(pluginId)) {
        return {
          status: 400,
          reason: "Say who you are: connect to /plugins?id=YOUR_PLUGIN_ID&token=TOKEN, with an id of 1 to 200 printable characters and no spaces.",
        };
      }
      if (connections.has(pluginId)) {
        return { status: 409, reason: `The plugin id ${pluginId} is connected already; one id belongs to one connection at a time.` };
      }
      connections.set(pluginId, { socket: null, inFlight: new Set(), waiting: new Map() });
      return null;
    },
    release(pluginId) {
      if (connections.get(pluginId)?.socket === null) connections.delete(pluginId);
    },
    accept(pluginId, socket) {
      const connection = connections.get(pluginId);
      if (!connection || connection.socket !== null) {
        socket.close(1008, "the plugin id was not claimed");
        return;
      }
      connection.socket = socket;
      socket.on("message", (data, isBinary) => {
        if (isBinary) return send(socket, invalidFrame(null, "The frame is binary; send JSON as a text frame."));
        onText(pluginId, connection, socket, data.toString());
      });
      socket.on("close", () => dropped(pluginId, connection));
      socket.on("error", () => socket.terminate());
    },
    deliver(pluginId, message) {
      const socket = connections.get(pluginId)?.socket;
      if (!socket || socket.readyState !== socket.OPEN) {
        return Promise.reject(new Error(`the plugin ${pluginId} is not connected to the bridge`));
      }
      const connection = connections.get(pluginId)!;
      const id = `e${++eventCount}`;
      return new Promise((resolve, reject) => {
        // The IDE stops waiting at the same time; this only frees the entry.
        const timer = setTimeout(() => {
          connection.waiting.delete(id);
          reject(new Error(`the plugin ${pluginId} did not answer within ${responseTimeoutMs} ms`));
        }, responseTimeoutMs);
        timer.unref();
        connection.waiting.set(id, { resolve, reject, timer });
        send(socket, { type: "event", id, message });
      });
    },
    connected: () => [...connections.entries()].filter(([, c]) => c.socket !== null).map(([id]) => id),
    close() {
      for (const connection of connections.values()) connection.socket?.close(1001, "the IDE host is stopping");
    },
  };
}
