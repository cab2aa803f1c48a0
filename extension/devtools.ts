chrome.devtools.panels.create('MCP', '', 'panel.html');
