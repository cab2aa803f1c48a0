// A whole frame with the redaction rules applied again: for exports, so a trace taken before a rule existed, one
// from elsewhere, or one taken before the user named an extra secret header leaves no secret in the file. Values
// already redacted stay as they are, so a frame redacted at capture comes back unchanged (the same object). Pure.
import type { Frame, HeaderMap } from './frames.ts';
import { makePayload } from './payload.ts';
import { redactHeaderValue, redactSubprotocol, redactUrl, redactUrlsIn } from './redact.ts';

/**
 * `frame` with its headers, URLs, legacy endpoint, subprotocols and error texts redacted; itself when nothing changed.
 * `extraSecretHeaders` are lower-case names.
 */
export function redactFrame(frame: Frame, extraSecretHeaders: readonly string[] = []): Frame {
  const f = frame;
  switch (f.kind) {
    case 'page-start':
    case 'page-end':
    case 'es-connect': {
      const url = redactUrl(f.url);
      return url === f.url ? f : { ...f, url };
    }
    case 'http-request':
    case 'http-response': {
      const url = redactUrl(f.url);
      const headers = redactHeaderMap(f.headers, extraSecretHeaders);
      return url === f.url && headers === f.headers ? f : { ...f, url, headers };
    }
    case 'sse-event': {
      // The legacy endpoint announces the URL the page posts to (its token included).
      if (f.event !== 'endpoint' || f.data.truncated || f.data.opaque) return f;
      const text = redactUrl(f.data.text);
      return text === f.data.text ? f : { ...f, data: makePayload(text, Number.MAX_SAFE_INTEGER) };
    }
    case 'http-end': {
      if (!f.error) return f;
      const message = redactUrlsIn(f.error.message);
      return message === f.error.message ? f : { ...f, error: { ...f.error, message } };
    }
    case 'capture-error': {
      const message = redactUrlsIn(f.message);
      return message === f.message ? f : { ...f, message };
    }
    case 'ws-connect': {
      const url = redactUrl(f.url);
      const protocols = f.protocols.map(redactSubprotocol);
      return url === f.url && protocols.every((p, i) => p === f.protocols[i]) ? f : { ...f, url, protocols };
    }
    case 'ws-open': {
      const protocol = redactSubprotocol(f.protocol);
      return protocol === f.protocol ? f : { ...f, protocol };
    }
    default:
      return f;
  }
}

/**
 * The header map with secret values redacted: unlike redactHeaders, names stay as stored and an unchanged map is the
 * same object (an export of a large trace copies only the frames that change).
 */
export function redactHeaderMap(h: HeaderMap, extra: readonly string[]): HeaderMap {
  let out: HeaderMap | undefined;
  for (const [name, value] of Object.entries(h)) {
    const v = redactHeaderValue(name.toLowerCase(), value, extra);
    if (v !== value) (out ??= { ...h })[name] = v;
  }
  return out ?? h;
}
