// A software authenticator for API tests (decision 024): a real P-256 key pair from node:crypto,
// attestation "none" in real CBOR, and assertions signed as a security key signs them
// (ECDSA-SHA256 over authenticatorData || SHA-256(clientDataJSON)). What it makes is checked by
// the API with @simplewebauthn/server exactly as a browser's would be; the options let an attack
// test lie about the origin, the RP id or the counter.
import crypto from 'node:crypto';
import type {
  PasskeyAssertion,
  PasskeyAttestation,
  PasskeyLoginOptions,
  PasskeyRegistrationOptions,
} from '@candor/contracts';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/** The relying party the test app is configured with (testConfig's webauthn). */
export const TEST_RP_ID = 'candor.test';
export const TEST_ORIGIN = 'https://candor.test';

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest();

/** Where and how a ceremony is answered; the defaults are the honest answer. */
export interface Ceremony {
  origin?: string;
  rpId?: string;
  /** The signature counter to report (default: one more than the last). */
  counter?: number;
  /** Overrides the challenge answered (default: the options'). */
  challenge?: string;
}

export class SoftAuthenticator {
  readonly credentialId = crypto.randomBytes(16);
  private readonly keys = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  /** The signature counter last reported; `counting: false` keeps it 0, as synced passkeys do. */
  counter = 0;

  constructor(private readonly counting = true) {}

  get id(): string {
    return b64(this.credentialId);
  }

  /** The public key as COSE_Key (EC2, ES256, P-256). */
  private cosePublicKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const key = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]);
    return isoCBOR.encode(key);
  }

  private authData(rpId: string, counter: number, attested: boolean): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts: Uint8Array[] = [
      sha256(rpId),
      Buffer.from([FLAG_UP | FLAG_UV | (attested ? FLAG_AT : 0)]),
      count,
    ];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), length, this.credentialId, this.cosePublicKey());
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create's answer to registration options. */
  register(options: PasskeyRegistrationOptions, c: Ceremony = {}): PasskeyAttestation {
    const rpId = c.rpId ?? options.rp.id ?? TEST_RP_ID;
    const authData = this.authData(rpId, this.counter, true);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as unknown as Parameters<typeof isoCBOR.encode>[0],
    );
    const clientDataJSON = this.clientData(
      'webauthn.create',
      c.challenge ?? options.challenge,
      c.origin ?? TEST_ORIGIN,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        attestationObject: b64(attestationObject),
        transports: ['usb'],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get's answer to login options, signed with this key. */
  assert(options: PasskeyLoginOptions, c: Ceremony = {}): PasskeyAssertion {
    const counter = c.counter ?? (this.counting ? this.counter + 1 : 0);
    this.counter = Math.max(this.counter, counter);
    const authData = this.authData(c.rpId ?? options.rpId ?? TEST_RP_ID, counter, false);
    const clientDataJSON = this.clientData(
      'webauthn.get',
      c.challenge ?? options.challenge,
      c.origin ?? TEST_ORIGIN,
    );
    const signature = crypto.sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      this.keys.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
      },
      clientExtensionResults: {},
    };
  }
}
