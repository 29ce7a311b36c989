// The typed plugin client (`import { connectPlugin } from "ide-core/client"`): what a plugin
// outside a browser uses to talk to the IDE host over the bridge. It owns the frame ids, so a
// plugin can keep many requests in flight and never pairs a reply with the wrong request; it
// turns a refused upgrade into a sentence a plugin author can act on; and it runs the
// health-then-register loop that every real plugin runs, because the IDE forgets its plugins
// whenever the user closes the window. A plugin's commands are answered through `onCommand`:
// when a run reaches one, the IDE sends `execute` (CONTRACT section 10), the client calls that
// command's handler, and the handler's answer is the command's state.
//
// types.ts: the client's types and the interface's (the core's, type-only); connect.ts:
// connecting; connection.ts: the connection; replies.ts: telling an error reply.
export { ConnectionRefusedError, connectPlugin, defaultTokenFile } from "./connect.ts";
export { isErrorReply } from "./replies.ts";
export type * from "./types.ts";
