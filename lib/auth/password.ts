// Passwords are hashed with Argon2id (@node-rs/argon2, maintained, prebuilt for this platform).
import { hash, verify } from '@node-rs/argon2';

export const MIN_PASSWORD_LENGTH = 8;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: 2 /* Argon2id */ });
}

export async function verifyPassword(digest: string, password: string): Promise<boolean> {
  try {
    return await verify(digest, password);
  } catch {
    return false;
  }
}
