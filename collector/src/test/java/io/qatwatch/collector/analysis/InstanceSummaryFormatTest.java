package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.chain.ChainBackup;
import io.qatwatch.collector.chain.ChainLink;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.compression.CompressionSamples;
import io.qatwatch.collector.compression.Method;
import io.qatwatch.collector.window.NightlyWindow;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A persisted summary is read by a later release than the one that wrote it: when a class whose fields the summary holds
 * changes its fields, its body changes, and {@link InstanceSummaryCodec#FORMAT} must be bumped so that old bodies are
 * rebuilt from the rows instead of read with the wrong layout. This pins a fingerprint of those classes' fields (and of
 * the stage's per-instance slot, so a new field there is weighed too) next to the format number: it fails until someone
 * has looked at the change and pinned it again, with the format bumped when the body changes.
 */
class InstanceSummaryFormatTest {

    /** The format the fingerprint below was taken at. */
    private static final int FORMAT = 7;
    private static final String FINGERPRINT = "d0d00f6c75dde92d00ac660e";

    /** Every class whose fields a summary writes (or, for the stage's slot, whose fields decide what it must write). */
    private static final List<String> SUMMARISED = List.of(
            "io.qatwatch.collector.analysis.InstanceSlot",
            "io.qatwatch.collector.analysis.InstanceSummaryCodec$Kept",
            "io.qatwatch.collector.analysis.PackedDigest",
            "io.qatwatch.collector.analysis.KeptHistory",
            "io.qatwatch.collector.analysis.KeptHistory$Kept",
            "io.qatwatch.collector.analysis.KeptHistory$Points",
            "io.qatwatch.collector.analysis.KeptHistory$Tail",
            NightlyWindow.class.getName(),
            NightlyWindow.DatabaseBackup.class.getName(),
            CompressionSamples.class.getName(),
            "io.qatwatch.collector.compression.CompressionSamples$Series",
            CompressionSamples.Key.class.getName(),
            Method.class.getName(),
            BaselineFulls.class.getName(),
            LogChain.class.getName(),
            ChainLink.class.getName(),
            ChainBackup.class.getName());

    @Test
    void theFormatNumberChangesWithTheFieldsOfWhatASummaryHolds() throws Exception {
        String now = fingerprint();
        assertThat(now).as("the fields of a class a summary holds changed: when the change is in what the stage keeps of"
                + " an instance's backups, change what InstanceSummaryCodec writes and reads (and SummaryRestore), bump"
                + " InstanceSummaryCodec.FORMAT and pin the new fingerprint and format here; when it is not (a slot's"
                + " bookkeeping), pin the new fingerprint alone").isEqualTo(FINGERPRINT);
        assertThat(InstanceSummaryCodec.FORMAT).as("the format the fingerprint was pinned at").isEqualTo(FORMAT);
    }

    private static String fingerprint() throws Exception {
        List<String> fields = new ArrayList<>();
        for (String name : SUMMARISED) {
            for (Field f : Class.forName(name).getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    fields.add(name + "." + f.getName() + ":" + f.getGenericType().getTypeName());
                }
            }
        }
        fields.sort(null);
        byte[] sha = MessageDigest.getInstance("SHA-256").digest(String.join("\n", fields).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(sha, 0, 12);
    }
}
