// The npm `punycode` package, imported by file path because the bare name resolves to Node's
// deprecated built-in module. Only what this project uses is declared.
declare module 'punycode/punycode.js' {
  const punycode: {
    decode(input: string): string;
    encode(input: string): string;
  };
  export default punycode;
}
