// Two spellings of one resource URI (RFC 3986 §6.2.2: case of scheme and host, percent-encoding of unreserved
// characters, hex case of other escapes, an empty or default port). The engine keeps URIs as exact strings — servers
// match them exactly (the 2026 SDK's listen router compares strings) — so this is only for explaining a miss.

const UNRESERVED = /%(2[DdEe]|3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|5[Ff]|6[1-9A-Fa-f]|7[0-9Aa]|7[Ee])/g;

/** A comparison key: equal keys mean the same resource under RFC 3986 syntax-based normalization. */
export function uriSpellingKey(uri: string): string {
  let s = uri.replace(UNRESERVED, (m) => String.fromCharCode(parseInt(m.slice(1), 16)));
  s = s.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(\/\/([^/?#]*))?(.*)$/s.exec(s);
  if (!m) return s;
  const scheme = m[1]!.toLowerCase();
  if (m[2] === undefined) return `${scheme}:${m[4]}`;
  let authority = m[3]!;
  const at = authority.lastIndexOf('@');
  const user = at >= 0 ? authority.slice(0, at + 1) : '';
  let host = (at >= 0 ? authority.slice(at + 1) : authority).toLowerCase();
  const port = /:(\d*)$/.exec(host);
  if (port && (port[1] === '' || (scheme === 'http' && port[1] === '80') || (scheme === 'https' && port[1] === '443'))) host = host.slice(0, port.index);
  authority = user + host;
  return `${scheme}://${authority}${m[4] || (scheme === 'http' || scheme === 'https' ? '/' : '')}`;
}
