// Preloaded by the test that runs an exported mocha file (mocha --require): the exported file
// builds `new Builder().forBrowser('chrome')` as Selenium's package wrote it; here that
// builder is pointed at Debian's chromedriver and Chromium, headless, so the file itself
// stays exactly as exported and Selenium Manager is never asked for a browser.
const { Builder } = require("selenium-webdriver");
const chrome = require("selenium-webdriver/chrome");

const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--headless=new"];
const build = Builder.prototype.build;

Builder.prototype.build = function buildHeadlessChromium() {
  const options = new chrome.Options().setChromeBinaryPath(process.env.CHROMIUM_PATH || "/usr/bin/chromium").addArguments(...FLAGS);
  this.setChromeOptions(options);
  this.setChromeService(new chrome.ServiceBuilder(process.env.CHROMEDRIVER_PATH || "/usr/bin/chromedriver"));
  return build.call(this);
};
