// A minimal ide-core plugin: click its toolbar button and it opens the IDE, registers and logs.
const IDE = "dkjmehhbhfeajiihbeoadcmfbcifeggn"; // the ide-core extension's id

const ask = (request) => chrome.runtime.sendMessage(IDE, request);

async function hello() {
  const replies = {
    open: await ask({ openIDEIfClosed: true }),
    health: await ask({ uri: "/health", verb: "get" }),
    register: await ask({ uri: "/register", verb: "post", payload: { name: "My plugin", version: "1.0.0" } }),
    log: await ask({ uri: "/log", verb: "post", payload: { message: "Hello from my plugin" } }),
  };
  console.log("ide-core replied", replies);
  return replies;
}

chrome.action.onClicked.addListener(hello);

// What the IDE sends its plugins: projectLoaded, playbackStarted, saveProject (while you control it)...
chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => {
  if (sender.id !== IDE) return;
  console.log("ide-core says", message);
  sendResponse(true);
});
