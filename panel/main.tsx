import { render } from 'preact';
render(<div>MCP panel</div>, document.getElementById('app')!);
