// The title of a panel opened as a tab names the inspected page; the page's URL is the page's to forge, and the title
// (document.title) is no text node the panel's printable hook escapes: panelTitle escapes it itself.
import { describe, expect, it } from 'vitest';
import { panelTitle } from '../../../panel/store.ts';

describe('panelTitle', () => {
  it('names the host, escaping what a page could forge into the tab strip', () => {
    expect(panelTitle(null)).toBe('MCP');
    expect(panelTitle('http://127.0.0.1:8080/app?x=1')).toBe('MCP — 127.0.0.1:8080');
    // No host (a scheme of its own): the URL, escaped.
    expect(panelTitle('about:blank#\u202emoc.elgoog')).toBe('MCP — about:blank#\\u202emoc.elgoog');
    expect(panelTitle('data:text/html,\u200bx\ny')).toBe('MCP — data:text/html,\\u200bx\\ny');
    // Not a URL at all (a forged page-start): as it is, escaped.
    expect(panelTitle('\u202egoogle.com')).toBe('MCP — \\u202egoogle.com');
  });
});
