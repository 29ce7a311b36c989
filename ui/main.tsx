// Entry of the IDE UI page the host serves (apps/host/ui.ts bundles this file).
import { render } from "preact";
import { App } from "./App.tsx";
import { socketTransport } from "../drivers/view/socketTransport.ts";
import "./styles.css";

const root = document.getElementById("app")!;
root.replaceChildren(); // the "Loading" text the HTML shows until this script runs
render(<App transport={socketTransport()} />, root);
