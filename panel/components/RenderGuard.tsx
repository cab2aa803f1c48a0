// A part of the panel that fails to render says so in its place, instead of taking the whole page down: without a
// boundary, one render error left preact's tree and the DOM apart, and every later render threw (the panel froze on a
// toolbar and an empty drawer, and grew detached DOM without bound — a long-session audit, 2026-12-05).
import type { ComponentChildren } from 'preact';
import { useEffect, useErrorBoundary } from 'preact/hooks';

/** `resetKey`: something else to show (another drawer target) is drawn afresh, without remounting what is shown. */
export function RenderGuard({ what, resetKey, children }: { what: string; resetKey?: string; children: ComponentChildren }) {
  const [error, retry] = useErrorBoundary((e: unknown) => console.error(`MCP panel: the ${what} failed to render`, e));
  useEffect(() => {
    if (error) retry();
    // Only a new target retries on its own.
  }, [resetKey]);
  if (error) {
    const message = error instanceof Error ? error.message : String(error);
    return (
      <div class="render-error" role="alert" data-render-error={what}>
        The {what} could not be drawn ({message}). Capture goes on; the details are in the console.{' '}
        <button type="button" onClick={retry}>
          Draw it again
        </button>
      </div>
    );
  }
  return <>{children}</>;
}
