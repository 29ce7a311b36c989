// ide-core's embedding API (CONTRACT section 1): createIde() and the types an embedder needs.
// The core lives in core/ (createIde, the protocol door, the ports, the user events) over
// machines/ and services/; drivers/ reach the outside for it; apps/ assemble the programs.
export { createIde } from "./core/ide.ts";
export type { Executor, Ide, IdeOptions, IdeView, Journal, Limits, OutboundMessage, SideProject, TabUnderTest, TestEnded, UserEvent, UserEventInput } from "./core/ide.ts";
