"""``referee lsp``: a language server that checks a log as it is typed (issue 33).

- ``documents``: the open logs, their text and reports, re-checked incrementally from kept
  positions (``referee.api.replay_kept``);
- ``tokens``: highlighting by semantic tokens, from the shape of a line alone;
- ``features``: diagnostics, completion, hover, code actions, go to definition;
- ``server``: the protocol over stdio (pygls, the optional extra ``lsp``).

A thin layer over ``referee.api``, like the command line: no rule knowledge in it.
"""
