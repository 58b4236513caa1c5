"""``referee lsp``: the language server, over standard input and output (pygls).

It wires the protocol's requests to ``referee.lsp.features`` and keeps the open logs in
``referee.lsp.documents`` (its own store: the text the editor sent, never a file read in
its place).  A handler that fails for any reason answers nothing and logs the reason to the
editor (``window/logMessage``): a rules bug must not end an editor's session, and the tests
fail on any such message.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from referee import __version__
from referee.lsp import features, tokens
from referee.lsp.documents import Document, Documents

T = TypeVar("T")

LEGEND = lsp.SemanticTokensLegend(token_types=list(tokens.TYPES), token_modifiers=[])


class RefereeServer(LanguageServer):
    """The server and its documents."""

    def __init__(self) -> None:
        super().__init__("referee", __version__,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.documents = Documents()

    def guarded(self, what: str, work: Callable[[], T], default: T) -> T:
        """``work()``, or ``default`` with the reason logged to the editor."""
        try:
            return work()
        except Exception as error:  # any failure at all: see the module's docstring
            self.window_log_message(lsp.LogMessageParams(
                type=lsp.MessageType.Error,
                message=f"referee lsp: {what} failed: {error!r}\n{traceback.format_exc()}",
            ))
            return default

    def publish(self, document: Document | None) -> None:
        if document is None:
            return
        nothing: list[lsp.Diagnostic] = []
        found = self.guarded("diagnostics", lambda: features.diagnostics(document), nothing)
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=document.uri, diagnostics=found, version=document.version))


def _changes(params: lsp.DidChangeTextDocumentParams
             ) -> list[tuple[tuple[int, int, int, int] | None, str]]:
    out: list[tuple[tuple[int, int, int, int] | None, str]] = []
    for change in params.content_changes:
        where = getattr(change, "range", None)
        if where is None:
            out.append((None, change.text))
        else:
            out.append(((where.start.line, where.start.character, where.end.line,
                         where.end.character), change.text))
    return out


def make_server() -> RefereeServer:
    server = RefereeServer()
    docs = server.documents

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RefereeServer, params: lsp.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        ls.publish(ls.guarded("open", lambda: docs.opened(item.uri, item.text, item.version),
                              None))

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RefereeServer, params: lsp.DidChangeTextDocumentParams) -> None:
        item = params.text_document
        ls.publish(ls.guarded("change", lambda: docs.changed(
            item.uri, _changes(params), item.version), None))

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RefereeServer, params: lsp.DidCloseTextDocumentParams) -> None:
        docs.closed(params.text_document.uri)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))

    def on(uri: str, what: str, work: Callable[[Document], T], default: T) -> T:
        document = docs.get(uri)
        if document is None:
            return default
        return server.guarded(what, lambda: work(document), default)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=[" ", ":", ">", "{"]))
    def completion(ls: RefereeServer, params: lsp.CompletionParams
                   ) -> lsp.CompletionList | None:
        where = params.position
        return on(params.text_document.uri, "completion",
                  lambda d: features.completion(d, where.line, where.character), None)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: RefereeServer, params: lsp.HoverParams) -> lsp.Hover | None:
        where = params.position
        return on(params.text_document.uri, "hover",
                  lambda d: features.hover(d, where.line, where.character), None)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.SourceFixAll]))
    def code_action(ls: RefereeServer, params: lsp.CodeActionParams
                    ) -> list[lsp.CodeAction] | None:
        span = params.range
        return on(params.text_document.uri, "code actions",
                  lambda d: features.code_actions(d, span.start.line, span.end.line), None)

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RefereeServer, params: lsp.DocumentFormattingParams
                   ) -> list[lsp.TextEdit] | None:
        return on(params.text_document.uri, "formatting", features.formatting, None)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RefereeServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        where = params.position
        return on(params.text_document.uri, "definition",
                  lambda d: features.definition(d, where.line, where.character), None)

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    def semantic_tokens(ls: RefereeServer, params: lsp.SemanticTokensParams
                        ) -> lsp.SemanticTokens:
        return lsp.SemanticTokens(data=on(params.text_document.uri, "semantic tokens",
                                          lambda d: tokens.encode(d.lines), []))

    return server


def serve(stdin: Any = None, stdout: Any = None) -> None:
    """Speak the protocol over standard input and output until the editor says exit."""
    make_server().start_io(stdin, stdout)
