import { LinkifyIt } from "linkify-it";

export type MessagePart = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

// Only links a person clearly wrote: explicit http(s):// and mailto:, plus bare
// emails (as mailto:). Bare hosts like `www.x.com` or `config.js` stay text: in logs
// file names and versions look like hosts. ftp: and protocol-relative `//` are off.
const linkify = new LinkifyIt({ fuzzyLink: false, fuzzyEmail: true, fuzzyIP: false })
  .add("ftp:", null)
  .add("//", null);

const ALLOWED_HREF = /^(https?:\/\/|mailto:)/i;

/** The one allow-list of link targets: http(s) and mailto. Whatever makes an anchor checks its href with this. */
export const isAllowedHref = (href: string): boolean => ALLOWED_HREF.test(href);

/** The message cut into text and links; joining every part's `text` gives the message back. */
export function splitLinks(message: string): MessagePart[] {
  const matches = linkify.match(message) ?? [];
  const parts: MessagePart[] = [];
  let last = 0;
  for (const match of matches) {
    // Belt and braces: the schemas above are the only ones left, this guards the href itself.
    if (!isAllowedHref(match.url) || match.index < last) continue;
    if (match.index > last) parts.push({ kind: "text", text: message.slice(last, match.index) });
    parts.push({ kind: "link", text: message.slice(match.index, match.lastIndex), href: match.url });
    last = match.lastIndex;
  }
  if (last < message.length) parts.push({ kind: "text", text: message.slice(last) });
  return parts;
}
