"""The sign-in page (a UI beyond loopback needs a key) and the page of a refusal or an error."""

from __future__ import annotations

from jobs.ui.html import Safe, fill


def error_page(status: int, detail: str) -> Safe:
    return fill('<p class="error">{detail}</p><p class="muted">HTTP {status}</p>',
                detail=detail, status=status)


def sign_in_page(next_path: str, error: str = "") -> Safe:
    return fill(
        '{error}<form class="sign-in" method="post" action="/login">'
        '<input type="hidden" name="next" value="{next}">'
        '<label>API key <input type="password" name="key" autocomplete="off" autofocus '
        'size="50"></label> <button>Sign in</button></form><p class="muted">This UI listens '
        'beyond loopback, so it needs a key of the server\'s <code>[[server.keys]]</code> '
        '(<code>interview key new</code>): a read key to read, a write key to forget.</p>',
        error=fill('<p class="error">{e}</p>', e=error) if error else Safe(""),
        next=next_path)
