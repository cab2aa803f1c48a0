// Taps window.fetch with a Proxy (same name, length, toString as the native). For MCP traffic it reports the request,
// the response head, the body (read from a clone) and the end; for anything else it calls the native fetch and does
// nothing more. The page gets the very Response object and the very error the native fetch produced.
import type { FrameDraft } from '../../shared/frames.ts';
import { classifyRequest, isMcpSseEvent, isReadableMcpContentType, type RequestVerdict } from '../../shared/mcp-detect.ts';
import { redactHeaders, redactUrl, redactUrlsIn } from '../../shared/redact.ts';
import { readBody, type BodyKind } from './body-reader.ts';
import type { Emitter } from './emitter.ts';
import { isKnownEndpoint, rememberEndpoint } from './endpoints.ts';
import { bodyPayload, dataInit, plainArgs, redactedHeaderMap, requestFacts, type RequestFacts } from './request-facts.ts';
import { installCancelLinks, linkCancel } from './link-cancel.ts';
import { disguise } from './disguise.ts';
import { hideOwnFrames, ignore, natives, thenNative, web } from './natives.ts';

/** Live capture settings; the relay may update them at any time (see config.ts). */
export interface TapConfig {
  capBytes: number;
  extraSecretHeaders: string[];
}

/** Holds an undecided exchange's frames until its first SSE event says it is MCP. */
class Exchange {
  private held: FrameDraft[] | undefined;
  constructor(
    private readonly emitter: Emitter,
    hold: boolean,
  ) {
    this.held = hold ? [] : undefined;
  }
  emit = (draft: FrameDraft): void => {
    if (this.held) this.held.push(draft);
    else this.emitter.emit(draft);
  };
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const d of held) this.emitter.emit(d);
  }
}

function verdictFor(facts: RequestFacts, bodyText: string | undefined): RequestVerdict {
  return classifyRequest({
    method: facts.method,
    headers: facts.headers,
    ...(bodyText !== undefined ? { bodyText } : {}),
    knownEndpoint: isKnownEndpoint(facts.url),
  });
}

function bodyKind(contentType: string | null, status: number): BodyKind {
  const kind = isReadableMcpContentType(contentType ?? undefined);
  if (kind === 'sse') return 'sse';
  if (kind === 'other' && status !== 204) return 'binary';
  return 'text';
}

export function installFetchTap(emitter: Emitter, config: TapConfig): void {
  const nativeFetch = window.fetch;
  if (typeof nativeFetch !== 'function') return;
  installCancelLinks();

  const observe = (facts: RequestFacts, syncVerdict: RequestVerdict, promise: Promise<Response>): Promise<Response> => {
    const conn = emitter.newConn();
    const exchange = new Exchange(emitter, syncVerdict === 'candidate');
    // The request frame may need an async body read (Blob, Request); everything else for this exchange waits for it.
    const requestDone: Promise<RequestVerdict> = thenNative(
      facts.bodyLater ?? natives.promiseResolve(facts.bodyText),
      (text) => {
        const verdict = syncVerdict === 'no' ? verdictFor(facts, text) : syncVerdict;
        if (verdict === 'no') return verdict;
        if (verdict === 'mcp') rememberEndpoint(facts.url);
        const body = bodyPayload(facts, text, config.capBytes);
        exchange.emit({
          kind: 'http-request',
          conn,
          method: facts.method,
          url: redactUrl(facts.url),
          headers: redactHeaders(facts.headers, config.extraSecretHeaders),
          ...(body ? { body } : {}),
        });
        return verdict;
      },
      () => syncVerdict,
    );

    return thenNative(
      promise,
      (response) => {
        try {
          onResponse(conn, facts, response, requestDone, exchange);
        } catch (e) {
          emitter.captureError('fetch:response', e, conn);
        }
        return response;
      },
      (error: unknown) => {
        // The native fetch made the error while our wrapper was on the stack: the page sees it without our frames. (Only
        // here, where the page gets a derived promise anyway: a fetch that is not MCP keeps the very native promise,
        // and its error our frame.)
        hideOwnFrames(error);
        thenNative(
          thenNative(requestDone, (verdict) => {
            // A candidate that never got a first event is not known to be MCP: forget it.
            if (verdict !== 'mcp') return;
            exchange.release();
            const name = error && typeof error === 'object' && 'name' in error ? String(error.name) : 'Error';
            // Browsers quote the URL in some errors (one with credentials in it): its secrets go.
            const message = redactUrlsIn(error instanceof Error ? error.message : String(error));
            emitter.emit({
              kind: 'http-end',
              conn,
              outcome: name === 'AbortError' ? 'aborted' : 'failed',
              phase: 'request',
              error: { name, message },
              bytes: 0,
            });
          }),
          undefined,
          (e: unknown) => emitter.captureError('fetch:error', e, conn),
        );
        throw error;
      },
    );
  };

  const onResponse = (
    conn: string,
    facts: RequestFacts,
    response: Response,
    requestDone: Promise<RequestVerdict>,
    exchange: Exchange,
  ): void => {
    // (Through the natives: a page that patches Response.prototype or Headers.prototype sees none of these calls.)
    const headers = web.responseHeaders.call(response);
    const status = web.responseStatus.call(response);
    const contentType = web.headersGet.call(headers, 'content-type');
    const kind = bodyKind(contentType, status);
    // Clone now, synchronously, before the page can touch the body.
    const clone = web.responseBody.call(response) !== null && !web.responseBodyUsed.call(response) ? web.responseClone.call(response) : undefined;
    const cloneBody = clone ? web.responseBody.call(clone) : null;
    const reader = cloneBody ? natives.getReader.call(cloneBody) : undefined;
    // Any body the page cancels cancels our clone (the download stops as without us); a streamed one is also watched
    // for a cancel inside a pipe.
    const cancelWatch = reader ? linkCancel(web.responseBody.call(response), reader, kind === 'sse') : undefined;
    // Read now, before the page's continuation could redefine anything on this Response. (Reading it a microtask
    // later, after the page's continuation, was measured: no change in the page-overhead figure.)
    const head: FrameDraft = {
      kind: 'http-response',
      conn,
      status,
      statusText: web.responseStatusText.call(response),
      url: redactUrl(web.responseUrl.call(response)),
      redirected: web.responseRedirected.call(response),
      headers: redactedHeaderMap(headers, config.extraSecretHeaders),
    };
    const readAll = async (verdict: RequestVerdict): Promise<void> => {
      if (verdict === 'no' || (verdict === 'candidate' && kind !== 'sse')) {
        if (reader) ignore(natives.readerCancel.call(reader));
        return;
      }
      exchange.emit(head);
      if (!reader) {
        exchange.release();
        emitter.emit({ kind: 'http-end', conn, outcome: 'complete', phase: 'body', bytes: 0 });
        return;
      }
      await readBody(conn, reader, kind, {
        emit: exchange.emit,
        ...(cancelWatch ? { onChunk: cancelWatch.check, cancelledByPage: () => cancelWatch.cancelledByPage } : {}),
        capBytes: config.capBytes,
        ...(verdict === 'candidate'
          ? {
              decideOnFirstEvent: (event: string | undefined, data: string) => {
                if (!isMcpSseEvent(event, data)) return false;
                rememberEndpoint(facts.url);
                if (event === 'endpoint') rememberEndpoint(data, facts.url);
                exchange.release();
                return true;
              },
            }
          : {}),
      });
    };
    const failed = (e: unknown) => {
      emitter.captureError('fetch:body', e, conn);
      cancelWatch?.stop();
    };
    // (A continuation that returned readAll's promise would have its promise resolved with it: that looks up `then` on
    // it, the page's patched one. So each continuation returns nothing.)
    thenNative(
      requestDone,
      (verdict) => {
        thenNative(readAll(verdict), () => cancelWatch?.stop(), failed);
      },
      failed,
    );
  };

  const withoutOurFrames = (p: Promise<Response>): Promise<Response> =>
    thenNative(p, undefined, (e: unknown) => {
      hideOwnFrames(e);
      throw e;
    });

  const tapped = new Proxy(nativeFetch, {
    apply(target, thisArg, args: unknown[]) {
      if (emitter.disabled) return natives.apply(target, thisArg, args);
      // The call is looked at just after the native fetch started it: the request is on its way while the tap reads the
      // arguments (they cannot change in between, it is the same synchronous call), and a one-shot headers iterator is
      // consumed by the native fetch, as without the extension, not by the tap. Only a Request's body must be taken
      // first (cloned), before the native fetch uses it up.
      let requestClone: Request | undefined;
      let callArgs = args;
      let made: Request | undefined;
      /** The init is plain data the tap reads as it stands (dataInit); the native fetch gets the page's arguments. */
      let direct = false;
      // Whether the native fetch rejects at once, with an error made while our wrapper is on the stack (an illegal
      // receiver, a used body, arguments that make no Request): the page then gets a derived promise whose error has
      // our frames taken out. Every other call that is not MCP keeps the very native promise.
      // (A null or undefined receiver is the global object, as WebIDL says: fetch.call(null, …) works natively.)
      const rightReceiver = thisArg === undefined || thisArg === null || thisArg === window;
      let rejectsNow = !rightReceiver;
      try {
        const input = args[0];
        const init = args[1];
        direct = rightReceiver && dataInit(input, init);
        if (!direct && !plainArgs(input, init)) {
          // An init object that is not plain data (a getter, a body to read from a Request, or a Proxy whose target holds
          // none of it: see dataInit and plainArgs), or an input converted by its
          // own toString: the tap makes the Request from the page's arguments — read once, in the order the native
          // fetch reads them — reads the facts from it, and the native fetch gets that Request. A call the native
          // would refuse for its receiver goes to it untouched; one whose arguments make no Request too (below).
          if (rightReceiver) {
            made = new web.Request(input as RequestInfo, init as RequestInit | undefined);
            callArgs = [made];
          }
        }
        const request = made ?? (input instanceof Request && (init === undefined || init === null) ? input : undefined);
        if (request && web.requestBodyUsed.call(request)) rejectsNow = true;
        else if (request && web.requestBody.call(request) !== null) requestClone = web.requestClone.call(request);
      } catch {
        rejectsNow = true;
        // Invalid arguments: the native fetch reports them exactly as usual (it reads them again: only on this path).
        requestClone = undefined;
        made = undefined;
        direct = false;
        callArgs = args;
      }
      const result = natives.apply(target, thisArg, callArgs) as Promise<Response>;
      let facts: RequestFacts | undefined;
      let verdict: RequestVerdict = 'no';
      try {
        facts = made
          ? requestFacts(made, undefined, (f, head) => verdictFor(f, head) !== 'no', requestClone)
          : rightReceiver
            ? requestFacts(args[0], direct ? (args[1] as RequestInit) : undefined, (f, head) => verdictFor(f, head) !== 'no', requestClone)
            : undefined;
        if (facts) {
          if ((facts.method === 'GET' || facts.method === 'HEAD') && (facts.bodyText !== undefined || facts.bodyLater || facts.bodyOpaque)) rejectsNow = true;
          verdict = verdictFor(facts, facts.bodyText);
          // Not MCP by headers/URL and no async body to look at: leave it completely alone.
          if (verdict === 'no' && !facts.bodyLater) facts = undefined;
        }
      } catch {
        facts = undefined; // Invalid arguments: the native fetch reports them exactly as usual.
        rejectsNow = true;
      }
      if (!facts) return rejectsNow ? withoutOurFrames(result) : result;
      try {
        return observe(facts, verdict, result);
      } catch (e) {
        emitter.captureError('fetch', e);
        return result;
      }
    },
  });
  window.fetch = disguise(tapped, nativeFetch);
}
