import { encode } from 'uqr';

/**
 * The otpauth:// URI as a QR code for an authenticator app to scan: drawn as one SVG path of
 * React elements (no HTML strings), dark on white whatever the colour scheme, with the quiet
 * zone scanners need. Loaded only with the staff enrolment screen.
 */
export default function TotpQr({ uri }: { uri: string }) {
  const { data, size } = encode(uri, { ecc: 'M', border: 2 });
  let d = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      className="totp-qr"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label="QR code of the setup key, for your authenticator app"
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} style={{ fill: 'var(--qr-light)' }} />
      <path d={d} style={{ fill: 'var(--qr-dark)' }} />
    </svg>
  );
}
