package io.qatwatch.tds;

/** Answers one SQL batch; gets the batch text so that it can page or filter by what the query asks for. */
@FunctionalInterface
public interface TdsResponder {

    TdsResponse respond(String sql);
}
