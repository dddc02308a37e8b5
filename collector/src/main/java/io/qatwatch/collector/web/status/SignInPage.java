package io.qatwatch.collector.web.status;

/**
 * The sign-in page: one field for a read token, posted to {@code /login}; no script. The token is sent once, in
 * the form's body, and the browser keeps only the session cookie the answer sets.
 */
public final class SignInPage {

    private static final String CSS = """
            body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2329;background:#f5f7f8}
            main{max-width:30rem;margin:3rem auto;padding:1.4rem 1.6rem;background:#fff;border:1px solid #dde2e6;border-radius:8px}
            h1{font-size:1.3rem;margin:0 0 .6rem}
            label{display:block;color:#5f6b76;margin:.8rem 0 .2rem}
            input{font:inherit;width:100%;padding:.35rem .5rem;box-sizing:border-box}
            button{font:inherit;margin-top:.9rem;padding:.35rem 1rem}
            p.message{padding:.45rem .7rem;border-radius:4px;background:#fdf3dc;border-left:4px solid #d98e04}
            p.message.error{background:#fbe1e1;border-color:#d43d3d}
            p.notice{padding:.45rem .7rem;border-radius:4px;background:#e7edfb;border-left:4px solid #4c7bd9}
            code{font-size:.9em}
            .muted{color:#5f6b76;font-size:.9rem}
            """;

    private SignInPage() {
    }

    /**
     * The page; {@code message} (may be null) says why the browser is here: an expired session, a wrong token,
     * having signed out. {@code error} draws it as an error; {@code csrf} is the form's CSRF token.
     */
    public static String render(String message, boolean error, String notice, String csrf) {
        StringBuilder html = new StringBuilder(2048);
        html.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>qatwatch: sign in</title><style>").append(CSS).append("</style></head><body><main>")
                .append("<h1>qatwatch status page</h1>");
        if (notice != null) {
            html.append("<p class=\"notice\" id=\"notice\">").append(Html.esc(notice)).append("</p>");
        }
        if (message != null) {
            html.append("<p class=\"message").append(error ? " error" : "").append("\" id=\"message\">")
                    .append(Html.esc(message)).append("</p>");
        }
        html.append("<form method=\"post\" action=\"/login\"><input type=\"hidden\" name=\"csrf\" value=\"")
                .append(Html.esc(csrf)).append("\"><label for=\"token\">Read token</label>")
                .append("<input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"off\" required autofocus>")
                .append("<button type=\"submit\">Sign in</button></form>")
                .append("<p class=\"muted\">A read token is issued on the collector with ")
                .append("<code>qatwatch collector token add NAME --read</code>. Signing in keeps a session cookie in this browser")
                .append(" until it expires or you sign out; scripts send the token as <code>Authorization: Bearer</code> instead.</p>")
                .append("</main></body></html>");
        return html.toString();
    }
}
