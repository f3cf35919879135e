/**
 * Password hashing (docs/api.md, Authentication, "Passwords"): argon2id with OWASP's parameters (m
 * = 19 MiB, t = 2, p = 1), stored as the standard encoded string. Uses the native `@node-rs/argon2`
 * (off the event loop); where a native addon cannot load (Deno Deploy) `hash-wasm` makes and checks
 * the same strings. Either is loaded on the first hash or check, not on import (about 20 ms of CPU that a start-up
 * or a test module which never signs anyone in does not spend).
 */

/** Shortest and longest accepted passwords, in characters. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 };

interface Argon2Impl {
  hash(password: string): Promise<string>;
  verify(encoded: string, password: string): Promise<boolean>;
}

async function loadWasm(): Promise<Argon2Impl> {
  const { argon2id, argon2Verify } = await import("hash-wasm");
  return {
    hash: (password) =>
      argon2id({
        password,
        salt: crypto.getRandomValues(new Uint8Array(16)),
        parallelism: PARAMS.parallelism,
        iterations: PARAMS.timeCost,
        memorySize: PARAMS.memoryCost,
        hashLength: PARAMS.outputLen,
        outputType: "encoded",
      }),
    verify: (encoded, password) => argon2Verify({ password, hash: encoded }),
  };
}

async function loadNative(): Promise<Argon2Impl | null> {
  try {
    const native = await import("@node-rs/argon2");
    return {
      // Argon2id is the addon's default algorithm (its `Algorithm` is a const enum, unreadable here).
      hash: (password) => native.hash(password, PARAMS),
      verify: (encoded, password) => native.verify(encoded, password),
    };
  } catch {
    return null;
  }
}

let loaded: Promise<Argon2Impl> | undefined;

/** The native implementation, else the wasm one; loaded once, on first use. */
function implementation(): Promise<Argon2Impl> {
  return loaded ??= loadNative().then((native) => native ?? loadWasm());
}

/** Hashes a password into an encoded argon2id string. */
export async function hashPassword(password: string): Promise<string> {
  return await (await implementation()).hash(password);
}

/** True when `password` matches `encoded`; false for a malformed hash. */
export async function verifyPassword(encoded: string, password: string): Promise<boolean> {
  try {
    return await (await implementation()).verify(encoded, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of one verification against a throwaway hash, so that a sign-in for an
 * unknown e-mail takes about as long as one for a known e-mail with a wrong password.
 */
export async function verifyDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword(crypto.randomUUID());
  await verifyPassword(await dummyHash, password);
}
