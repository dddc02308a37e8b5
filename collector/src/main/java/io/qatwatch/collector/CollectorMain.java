package io.qatwatch.collector;

/** Entry point of the collector jar. */
public final class CollectorMain {
    private CollectorMain() {
    }

    public static void main(String[] args) {
    }
}
