// Extension ids from manifest keys, as Chromium computes them: the first 32 hex digits of the
// SHA-256 of the public key's DER bytes, each digit 0-f written as a letter a-p. Node only:
// the build, the tests and the benchmark pin the ids of the extensions they load with it.
import { createHash, generateKeyPairSync } from "node:crypto";

export function extensionIdOf(publicKeyBase64: string): string {
  const der = Buffer.from(publicKeyBase64, "base64");
  if (der.length === 0) throw new TypeError("An extension key must be a non-empty base64 public key.");
  const hex = createHash("sha256").update(der).digest("hex").slice(0, 32);
  return Array.from(hex, (digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join("");
}

/** A fresh key pair's public half and the id it gives, for an extension made for a test. */
export function newExtensionKey(): { key: string; id: string } {
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const key = publicKey.export({ type: "spki", format: "der" }).toString("base64");
  return { key, id: extensionIdOf(key) };
}
