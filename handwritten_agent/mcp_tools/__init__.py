"""Tools over the Model Context Protocol: the course's tools served, and foreign servers' tools
used.

- ``wire``     a tiny hand-written JSON-RPC-over-stdio client, to see the messages of a session
- ``server``   the course's ``ToolRegistry`` served with the official ``mcp`` SDK (stdio, streamable
               HTTP)
- ``adapter``  a server's ``tools/list`` as registry ``Tool`` objects whose calls go through
               ``tools/call``
- ``pins``     a hook that pins each foreign tool's description and schema, and refuses a changed
               one
- ``poisoned`` test servers whose tools lie (tool poisoning, a description changed after approval)
- ``startup``  a server child's fast start (skips an optional import that costs seconds)
- ``cli``      the server's command line (``python -m handwritten_agent.mcp_tools``)

Left out: resources, prompts, sampling, roots, elicitation and OAuth — only tools are used here.
The package is named ``mcp_tools`` so that it never hides the SDK's top-level ``mcp`` package.
"""
