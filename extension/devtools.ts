// The devtools page: registers the "MCP" panel. It runs once per devtools window and does nothing else.
import browser from 'webextension-polyfill';

void browser.devtools.panels.create('MCP', '', 'panel.html');
