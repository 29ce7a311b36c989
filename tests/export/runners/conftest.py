# Copied beside an exported pytest file by the test that runs it: the file calls
# `webdriver.Chrome()` as Selenium's package wrote it; here that is Debian's chromedriver and
# Chromium, headless, so the file itself stays exactly as exported.
import os

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--headless=new"]
_Chrome = webdriver.Chrome


class HeadlessChromium(_Chrome):
    def __init__(self, *args, **kwargs):
        options = Options()
        options.binary_location = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
        for flag in FLAGS:
            options.add_argument(flag)
        super().__init__(service=Service(os.environ.get("CHROMEDRIVER_PATH", "/usr/bin/chromedriver")), options=options)


webdriver.Chrome = HeadlessChromium
