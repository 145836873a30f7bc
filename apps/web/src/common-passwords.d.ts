// The common-password list alone (the package's entry also carries its keyboard graphs), for
// password-secrets.ts: the package's own types describe only its entry.
declare module '@zxcvbn-ts/language-common/dist/passwords.json.mjs' {
  const passwords: string[];
  export default passwords;
}
