// The devtools page: registers the "MCP" panel. It runs once per devtools window. Besides, it forwards DevTools' own
// Find (Ctrl/⌘+F opens DevTools' Find bar over an extension panel) to the panel's window, where it drives the filter
// (panel/devtools-search.ts). chrome.* rather than the polyfill: onSearch is Chrome's (the polyfill's types lack it).
import { forwardSearch } from '../panel/devtools-search.ts';

chrome.devtools.panels.create('MCP', '', 'panel.html', (panel) => forwardSearch(panel, location.origin));
