package io.qatwatch.protocol;

/** A report that is not valid JSON of the wire format, or whose content breaks a rule; names the field. */
public final class ReportFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final String field;

    public ReportFormatException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** JSON path of the first bad field, e.g. {@code instances[0].backups[2].backupSizeBytes}; {@code $} for the body. */
    public String field() {
        return field;
    }
}
