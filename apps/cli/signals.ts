// Ctrl-C (SIGINT) and SIGTERM for the long-running commands (npm start, npm run grid): the
// first one runs `stop` once, then the process exits 0; what comes while it stops is ignored.
export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const once = async () => {
    if (stopping) return;
    stopping = true;
    await stop();
    process.exit(0);
  };
  process.on("SIGINT", once);
  process.on("SIGTERM", once);
}
