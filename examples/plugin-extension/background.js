// A minimal ide-core plugin: click its toolbar button and it opens the IDE, registers a command,
// declares a locator strategy (sku=hat-3 finds [data-sku="hat-3"]) and logs.
const IDE = "dkjmehhbhfeajiihbeoadcmfbcifeggn"; // the ide-core extension's id

const ask = (request) => chrome.runtime.sendMessage(IDE, request);

const COMMAND = { id: "exampleExtensionCheck", name: "example extension check" };
const STRATEGY = { name: "sku", css: '[data-sku="{value}"]', attribute: "data-sku" };

async function hello() {
  const replies = {
    open: await ask({ openIDEIfClosed: true }),
    health: await ask({ uri: "/health", verb: "get" }),
    register: await ask({ uri: "/register", verb: "post", payload: { name: "My plugin", version: "1.0.0", commands: [COMMAND] } }),
    strategy: await ask({ uri: "/locator/strategy", verb: "post", payload: STRATEGY }),
    log: await ask({ uri: "/log", verb: "post", payload: { message: "Hello from my plugin" } }),
  };
  console.log("ide-core replied", replies);
  return replies;
}

chrome.action.onClicked.addListener(hello);

// What the IDE sends its plugins: projectLoaded, playbackStarted, saveProject (while you control it),
// and `execute` when a run reaches a command this plugin registered.
chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => {
  if (sender.id !== IDE) return;
  console.log("ide-core says", message);
  if (message.action === "execute" && message.command.command === COMMAND.id) {
    // A string passes with it as the message; { error } fails the command.
    const { target } = message.command;
    const { tabId } = message.options;
    sendResponse(target ? `checked "${target}" in tab ${tabId}` : { error: `${COMMAND.id} needs a target` });
    return;
  }
  sendResponse(true);
});
