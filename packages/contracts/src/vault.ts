import { z } from 'zod';

/**
 * The member's end-to-end encrypted vault (decision 020): what only the member may read (their
 * answers, their answer credentials, their profile), sealed in the browser under a key that
 * never leaves it. The server keeps an opaque blob per account. Its length is one of a few
 * sizes, so it says at most roughly how much the vault holds, never how many answers.
 */
export const VAULT_SIZES = [4096, 16_384, 65_536, 262_144] as const;

/** `GET /v1/user/vault/`: version 0 and no blob until the first write. */
export const VaultSchema = z.object({
  version: z.number().int().min(0),
  /** The sealed vault, base64url; null before the first write. */
  blob: z.string().nullable(),
});
export type Vault = z.infer<typeof VaultSchema>;

/** `PUT /v1/user/vault/`: the version read (compare-and-swap) and the new sealed blob. */
export const VaultWriteSchema = z
  .object({
    version: z.number({ error: 'Send the version you read.' }).int().min(0),
    blob: z
      .string({ error: 'Send the sealed vault as base64url.' })
      .max(Math.ceil((VAULT_SIZES.at(-1)! * 4) / 3), 'The vault is too large.')
      .regex(/^[A-Za-z0-9_-]+$/, 'Send the sealed vault as base64url.')
      .refine(
        (b) => (VAULT_SIZES as readonly number[]).includes(Math.floor((b.length * 3) / 4)),
        `Pad the sealed vault to one of ${VAULT_SIZES.join(', ')} bytes.`,
      ),
  })
  .strict();
export type VaultWrite = z.infer<typeof VaultWriteSchema>;
