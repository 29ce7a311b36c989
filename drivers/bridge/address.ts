// Where the plugin bridge is found when nothing else is said: the port it listens on at
// 127.0.0.1 and the file its token is written to. npm start's host, npm run play and their
// usage texts all read them here (the client's default token file, client/connect.ts, is the
// same path seen from a plugin).
import { homedir } from "node:os";
import { join } from "node:path";

export const DEFAULT_PORT = 7357;
export const DEFAULT_TOKEN_FILE = join(homedir(), ".ide-core", "token");
