import { isUtf8 } from 'node:buffer';
import { isHopByHop } from '@/lib/http/hop-by-hop';

// "Copy as cURL" (pure): a bash command that sends a stored request again with exactly its bytes.
//   - headers in their stored order, one -H each, less the hop-by-hop ones curl sets itself
//     (lib/http/hop-by-hop.ts); an empty value as `-H 'name;'` (curl's way of sending one); curl's
//     own User-Agent, Accept and Content-Type turned off (`-H 'Accept:'`) when the request had none,
//     and `Expect:` off, so that no header is added;
//   - a UTF-8 body as `--data-binary $'…'` (ANSI-C quoting: \n, \t, \\, \' and \xHH for other
//     control bytes; every other character as it is);
//   - a body that is not UTF-8, holds a NUL (bash strings cannot) or starts with `@` (curl would read
//     a file) comes from base64 through `base64 -d` into `--data-binary @-`, with a comment saying why.

export type TCurlInput = { method: string; url: string; headers: [string, string][]; body: Uint8Array | null };
export type TCurlCommand = { command: string; /** false when the body is sent from base64 (not UTF-8 text). */ utf8: boolean };
/** A message's commands: its attempts' by attempt id, its receipts' by receipt id. */
export type TMessageCurls = { attempts: Record<string, TCurlCommand>; receipts: Record<number, TCurlCommand> };

/** `'text'` for bash: single quotes, each `'` written as `'\''`. */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

const C_ESCAPES: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\\': '\\\\', "'": "\\'" };

/** `$'text'` for bash: what the shell turns back into exactly these characters. */
export function ansiCQuote(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (C_ESCAPES[ch]) out += C_ESCAPES[ch];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `$'${out}'`;
}

const CURL_DEFAULTS = ['user-agent', 'accept'];

export function curlCommand({ method, url, headers, body }: TCurlInput): TCurlCommand {
  const bytes = body ?? new Uint8Array();
  const buf = Buffer.from(bytes);
  const text = buf.length > 0 && isUtf8(buf) && !buf.includes(0) && buf[0] !== 0x40 ? buf.toString('utf8') : null;
  const sendsBody = buf.length > 0 || !['GET', 'HEAD'].includes(method.toUpperCase());
  const names = new Set(headers.map(([n]) => n.toLowerCase()));
  const lines: string[] = [];
  const args: string[] = [`curl ${shellQuote(url)}`];
  const defaultMethod = sendsBody ? 'POST' : 'GET';
  if (method.toUpperCase() !== defaultMethod) args.push(`-X ${shellQuote(method)}`);
  for (const [name, value] of headers) {
    if (isHopByHop(name)) continue;
    args.push(`-H ${shellQuote(value === '' ? `${name};` : `${name}: ${value}`)}`);
  }
  for (const name of CURL_DEFAULTS) if (!names.has(name)) args.push(`-H ${shellQuote(`${name === 'accept' ? 'Accept' : 'User-Agent'}:`)}`);
  if (sendsBody) {
    if (!names.has('content-type')) args.push(`-H 'Content-Type:'`);
    args.push(`-H 'Expect:'`);
  }
  if (!sendsBody) {
    lines.push(args.join(' \\\n  '));
    return { command: lines.join('\n'), utf8: true };
  }
  if (buf.length === 0) args.push(`--data-binary ''`);
  else if (text !== null) args.push(`--data-binary ${ansiCQuote(text)}`);
  else {
    const why = !isUtf8(buf) ? 'is not UTF-8' : buf.includes(0) ? 'holds a NUL byte' : 'starts with @';
    args.push('--data-binary @-');
    lines.push(`# The body ${why}: its exact bytes come from base64 (base64 -d) on stdin.`);
    const b64 = buf.toString('base64').replace(/.{1,76}/g, '$&\n');
    lines.push(`base64 -d <<'GC_BODY' | ${args.join(' \\\n  ')}\n${b64}GC_BODY`);
    return { command: lines.join('\n'), utf8: false };
  }
  return { command: args.join(' \\\n  '), utf8: true };
}
