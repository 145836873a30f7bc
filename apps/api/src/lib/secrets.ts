import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Secrets {
  jwtSecret: string;
  pseudonymSecret: string;
}

/**
 * Secrets from the environment, or, in embedded mode, generated on first start and kept in
 * `DATA_DIR/secrets.json` (mode 0600) so sessions and pseudonyms survive restarts.
 */
export function resolveSecrets(
  fromEnv: { jwtSecret: string | undefined; pseudonymSecret: string | undefined },
  dataDir: string,
): Secrets {
  if (fromEnv.jwtSecret && fromEnv.pseudonymSecret) {
    return { jwtSecret: fromEnv.jwtSecret, pseudonymSecret: fromEnv.pseudonymSecret };
  }
  const file = path.join(dataDir, 'secrets.json');
  const stored: Partial<Secrets> = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>)
    : {};
  const generated: Secrets = {
    jwtSecret: stored.jwtSecret ?? crypto.randomBytes(48).toString('base64url'),
    pseudonymSecret: stored.pseudonymSecret ?? crypto.randomBytes(48).toString('base64url'),
  };
  if (!stored.jwtSecret || !stored.pseudonymSecret) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(generated, null, 2), { mode: 0o600 });
  }
  return {
    jwtSecret: fromEnv.jwtSecret ?? generated.jwtSecret,
    pseudonymSecret: fromEnv.pseudonymSecret ?? generated.pseudonymSecret,
  };
}
