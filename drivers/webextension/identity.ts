// The IDE extension's identity. Chromium derives an unpacked extension's id from the `key`
// in its manifest (the public key, base64 DER), not from the folder it is loaded from, so
// the id plugins send their messages to is the same on every machine and every build. Only
// the public half exists: unpacked loading needs nothing else, and a store listing brings
// its own key. tests/unit/extension-build.test.ts checks that the id below is the key's.
export const IDE_EXTENSION_KEY =
  "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAvlH9r7mVct65fpfslzepQ6Cm0nKBN6vfFCmZhZ4zsLBgrdj6BicILBGyi6DBGsauNjFz8PzDEQCU1BpE5N7N6d5gwXmyjVpnz0sPsRS0NvS4H+AbMxW4Hco/E5VPxDQXTm760t3sc857F8CeJF5nBtX+4vu4oV8JptD/7zABaVBb6ypGi0duLLn9IRU1qsMnKCArYcaeSV5YmWH+OPME7duVbPuGdkyZyAHfK6hXRfkwmBbyfLhTTBUa1jYizZ1Bz1kANnaHtYgCmIOVqomQNyNMiAmsC2F+amjYR+Og/Y93TqNXSqb0u8s1j7+J2p79LtSe92Gh3fzKpwYl4iQxmQIDAQAB";

export const IDE_EXTENSION_ID = "dkjmehhbhfeajiihbeoadcmfbcifeggn";
